/// What a backend can produce, known before anything is sent, so that the protocol layer can
/// refuse a `text` or `key` it cannot carry out with `bad_field` instead of typing half of it.
public struct ControlCapabilities: Sendable, Hashable {
    /// Which characters `text` and character `key`s may hold.
    public enum Characters: Sendable, Hashable {
        /// Any printable Unicode (X11 binds a spare keycode; the portal sends Unicode keysyms).
        case anyUnicode
        /// Only what a US keyboard layout types (printable ASCII; tab and newline in `text`):
        /// uinput sends keycodes, which the desktop interprets through its own layout.
        case usLayoutASCII
    }

    public var characters: Characters

    public init(characters: Characters) {
        self.characters = characters
    }

    /// Whether `scalar` can be typed (tab and newline count as typeable in text).
    public func canType(_ scalar: Unicode.Scalar) -> Bool {
        switch characters {
        case .anyUnicode:
            return HostKey.isPrintable(scalar) || scalar == "\n" || scalar == "\t"
        case .usLayoutASCII:
            return (0x20...0x7E).contains(scalar.value) || scalar == "\n" || scalar == "\t"
        }
    }
}
