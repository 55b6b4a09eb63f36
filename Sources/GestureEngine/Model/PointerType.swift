/// The kind of device behind a pointer, as the browser's `PointerEvent.pointerType` names it.
public enum PointerType: String, Sendable, Hashable, CaseIterable {
    case touch
    case mouse
    case pen

    /// The protocol's name of this pointer type.
    public var name: String { rawValue }

    /// Parses the protocol's name; `nil` for anything else.
    public init?(name: String) {
        self.init(rawValue: name)
    }
}
