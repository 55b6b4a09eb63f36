/// The kind of device behind a pointer, as the browser's `PointerEvent.pointerType` names it.
public enum PointerType: UInt8, Sendable, Hashable, CaseIterable {
    case touch
    case mouse
    case pen

    /// The protocol's name of this pointer type.
    public var name: String {
        switch self {
        case .touch: "touch"
        case .mouse: "mouse"
        case .pen: "pen"
        }
    }

    /// Parses the protocol's name; `nil` for anything else.
    public init?(name: String) {
        switch name {
        case "touch": self = .touch
        case "mouse": self = .mouse
        case "pen": self = .pen
        default: return nil
        }
    }
}
