/// The limits of PROTOCOL.md "Bad input", with its defaults, plus the step hold.
/// The defaults are written once, in `init`: `ProtocolLimits().maxPointers` is the default
/// everywhere else (flags' help, the configuration reference, replay).
public struct ProtocolLimits: Sendable, Hashable {
    /// A text frame longer than this closes the connection with 1009.
    public var maxMessageBytes: Int
    /// Sustained messages per second (batch elements count one each) before closing with
    /// 1008. A token bucket holding one second's worth; 0 turns the limit off.
    public var maxMessagesPerSecond: Int
    /// More errors than this in a row close the connection with 1008.
    public var maxErrorsInARow: Int
    /// Pointers down at once; a further `down` is refused with `too_many_pointers`.
    public var maxPointers: Int
    /// How long (server ms) a move step sent as a single-message frame is held while more
    /// than one pointer is down, so same-`t` moves arriving as separate frames are judged
    /// together. 0 judges every frame at once.
    public var stepHoldMs: Double
    /// A connection that has not sent a valid `hello` this long (server ms) after it opened is
    /// closed with 1008, so a client cannot hold a connection slot without saying who it is.
    /// 0 turns the deadline off. (An extension: PROTOCOL.md only says `hello` comes first.)
    public var helloTimeoutMs: Double
    /// The most timer events (`repeat`, `timedPress` ticks…) one engine advance emits in a live
    /// session before its periodic timers skip ahead (counts stay right; the ticks in between
    /// are not sent). Live, the server fires timers as they fall due, so a burst means the
    /// page's `t` jumped while a finger was held: without this bound one such message would make
    /// 10,000 frames for the connection and every observer. `replay` keeps the engine's
    /// default, so a long hold replays tick by tick.
    public static let liveTicksPerAdvance = 100

    public init(
        maxMessageBytes: Int = 65_536, maxMessagesPerSecond: Int = 2_000, maxErrorsInARow: Int = 20,
        maxPointers: Int = 10, stepHoldMs: Double = 2, helloTimeoutMs: Double = 10_000
    ) {
        self.maxMessageBytes = maxMessageBytes
        self.maxMessagesPerSecond = maxMessagesPerSecond
        self.maxErrorsInARow = maxErrorsInARow
        self.maxPointers = maxPointers
        self.stepHoldMs = stepHoldMs
        self.helloTimeoutMs = helloTimeoutMs
    }
}
