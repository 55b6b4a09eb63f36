/// The continuous gesture whose phase a `swipe` was judged on (GESTURES.md "swipe": a `drag`
/// or a `scroll`): the project's additive `ends` field of the swipe event
/// (docs/gestures.md). A two-finger flick is the brisk end of a scroll, so hooks leave swipes
/// that end a scroll alone unless a rule asks for them (`ends: scroll`).
public enum SwipeEnd: String, Sendable, Hashable, CaseIterable {
    /// One finger, or three and more.
    case drag
    /// Two fingers moving together.
    case scroll

    /// The protocol's name: `"drag"`, `"scroll"`.
    public var name: String { rawValue }

    /// Parses a protocol name; `nil` for anything else.
    public init?(name: String) {
        self.init(rawValue: name)
    }
}
