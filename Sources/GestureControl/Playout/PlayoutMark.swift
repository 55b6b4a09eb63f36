/// Where the actions of one input end in a batch handed to `ActionPlayout.admit`, and when the
/// page made that input.
public struct PlayoutMark: Sendable, Hashable {
    /// The index after the input's last action.
    public var end: Int
    /// The page's `t` of the input (nil: not a timed input, e.g. a command or a timer).
    public var t: Double?
    /// The input ended a stroke or was no motion at all (a finger lifted or cancelled, a
    /// press): nothing is predicted past it.
    public var settles: Bool

    public init(end: Int, t: Double?, settles: Bool) {
        self.end = end
        self.t = t
        self.settles = settles
    }
}
