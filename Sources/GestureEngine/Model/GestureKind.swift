/// Every gesture of GESTURES.md, by its protocol name.
public enum GestureKind: String, Sendable, Hashable, CaseIterable {
    case press
    case release
    case end
    case tap
    case doubleTap
    case singleTapConfirmed
    case longPress
    case longPressDrag
    case `repeat`
    case timedPress
    case drag
    case swipe
    case scroll
    case pinch
    case rotate
    case hover

    /// The protocol's name, e.g. `"doubleTap"`.
    public var name: String { rawValue }

    /// Parses a protocol name; `nil` for an unknown gesture.
    public init?(name: String) {
        self.init(rawValue: name)
    }

    /// Whether the gesture goes `began` → `changed`* → `ended` | `cancelled`.
    public var isContinuous: Bool {
        switch self {
        case .longPress, .longPressDrag, .timedPress, .drag, .scroll, .pinch, .rotate, .hover: true
        case .press, .release, .end, .tap, .doubleTap, .singleTapConfirmed, .repeat, .swipe: false
        }
    }
}
