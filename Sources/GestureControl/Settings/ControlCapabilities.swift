/// What a backend can produce, known before anything is sent, so that the protocol layer can
/// refuse a `text` or `key` it cannot carry out with `bad_field` instead of typing half of it,
/// and whether it takes the touches themselves.
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
    /// The backend takes touches as contacts of a touchpad of its own (`touchpad`): the
    /// mapping passes them through instead of clicking, scrolling and zooming.
    public var takesContacts: Bool

    public init(characters: Characters, takesContacts: Bool = false) {
        self.characters = characters
        self.takesContacts = takesContacts
    }

    /// How a connection numbered `owner` routes its touches with this backend.
    public func touchRouting(owner: Int) -> TouchRouting {
        takesContacts ? .contacts(owner: owner) : .gestures
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
