/// Every gesture of GESTURES.md, by its protocol name.
public enum GestureKind: UInt8, Sendable, Hashable, CaseIterable {
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
    public var name: String {
        switch self {
        case .press: "press"
        case .release: "release"
        case .end: "end"
        case .tap: "tap"
        case .doubleTap: "doubleTap"
        case .singleTapConfirmed: "singleTapConfirmed"
        case .longPress: "longPress"
        case .longPressDrag: "longPressDrag"
        case .repeat: "repeat"
        case .timedPress: "timedPress"
        case .drag: "drag"
        case .swipe: "swipe"
        case .scroll: "scroll"
        case .pinch: "pinch"
        case .rotate: "rotate"
        case .hover: "hover"
        }
    }

    /// Parses a protocol name; `nil` for an unknown gesture.
    public init?(name: String) {
        guard let kind = GestureKind.allCases.first(where: { $0.name == name }) else { return nil }
        self = kind
    }

    /// Whether the gesture goes `began` → `changed`* → `ended` | `cancelled`.
    public var isContinuous: Bool {
        switch self {
        case .longPress, .longPressDrag, .timedPress, .drag, .scroll, .pinch, .rotate, .hover: true
        case .press, .release, .end, .tap, .doubleTap, .singleTapConfirmed, .repeat, .swipe: false
        }
    }
}
