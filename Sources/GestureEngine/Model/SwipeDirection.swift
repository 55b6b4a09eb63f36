/// The main-axis direction of a swipe; `up` is decreasing y.
public enum SwipeDirection: String, Sendable, Hashable, CaseIterable {
    case left
    case right
    case up
    case down

    /// The protocol's name of the direction.
    public var name: String { rawValue }

    /// Parses a protocol name; `nil` for anything else.
    public init?(name: String) {
        self.init(rawValue: name)
    }
}
