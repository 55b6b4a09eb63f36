/// The main-axis direction of a swipe; `up` is decreasing y.
public enum SwipeDirection: UInt8, Sendable, Hashable, CaseIterable {
    case left
    case right
    case up
    case down

    /// The protocol's name of the direction.
    public var name: String {
        switch self {
        case .left: "left"
        case .right: "right"
        case .up: "up"
        case .down: "down"
        }
    }

    /// Parses a protocol name; `nil` for anything else.
    public init?(name: String) {
        guard let direction = SwipeDirection.allCases.first(where: { $0.name == name }) else { return nil }
        self = direction
    }
}
