/// The phase of a gesture event. Discrete gestures only ever have `.ended`.
public enum GesturePhase: UInt8, Sendable, Hashable, CaseIterable {
    case began
    case changed
    case ended
    case cancelled

    /// The protocol's name of the phase.
    public var name: String {
        switch self {
        case .began: "began"
        case .changed: "changed"
        case .ended: "ended"
        case .cancelled: "cancelled"
        }
    }

    /// Parses a protocol name; `nil` for anything else.
    public init?(name: String) {
        guard let phase = GesturePhase.allCases.first(where: { $0.name == name }) else { return nil }
        self = phase
    }
}
