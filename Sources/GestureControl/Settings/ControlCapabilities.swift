/// What a backend can produce, known before anything is sent, so that the protocol layer can
/// refuse a `text` or `key` it cannot carry out with `bad_field` instead of typing half of it,
/// and whether it takes the touches themselves.
public struct ControlCapabilities: Sendable, Hashable {
    /// Which characters `text` and character `key`s may hold.
    public enum Characters: Sendable, Hashable {
        /// Any printable Unicode (X11 binds a spare keycode for what the map lacks).
        case anyUnicode
        /// Only what a US keyboard layout types (printable ASCII; tab and newline in `text`):
        /// uinput sends keycodes, which the desktop interprets through its own layout.
        case usLayoutASCII
        /// What the desktop's keyboard layout types (the table the backend last reported, a
        /// value the server hands every session: `HubInput.desktopLayoutChanged`; tab and
        /// newline always), and printable ASCII while the layout is unknown (nil): the portal
        /// sends keysyms, which the desktop drops when its layout lacks them.
        case desktopLayout(DesktopLayout.Table?)
    }

    public var characters: Characters
    /// The backend takes touches as contacts of a touchpad of its own (`touchpad`): the
    /// mapping passes them through instead of clicking, scrolling and zooming.
    public var takesContacts: Bool
    /// The backend draws a spotlight around the pointer (`HostAction.spotlight`): `x11` only.
    public var spotlight: Bool

    public init(characters: Characters, takesContacts: Bool = false, spotlight: Bool = false) {
        self.characters = characters
        self.takesContacts = takesContacts
        self.spotlight = spotlight
    }

    /// How a connection numbered `owner` routes its touches with this backend.
    public func touchRouting(owner: Int) -> TouchRouting {
        takesContacts ? .contacts(owner: owner) : .gestures
    }

    /// Whether `scalar` can be typed (tab and newline count as typeable in text).
    public func canType(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "\n" || scalar == "\t" { return true }
        switch characters {
        case .anyUnicode:
            return HostKey.isPrintable(scalar)
        case .usLayoutASCII:
            return Self.isPrintableASCII(scalar)
        case .desktopLayout(let table):
            guard let table else { return Self.isPrintableASCII(scalar) }
            return table.keysym(for: scalar) != nil
        }
    }

    /// Why the characters `canType` refused cannot be typed, for the refusal's message.
    public var limitation: String {
        switch characters {
        case .anyUnicode:
            return "it types printable characters only"
        case .usLayoutASCII:
            return "it types US-layout ASCII only"
        case .desktopLayout(let table):
            guard let table else {
                return "the desktop's keyboard layout is not known (no Wayland keymap), so it types ASCII only"
            }
            let names = table.names.joined(separator: ", ")
            guard table.names.count > 1 else { return "not on the desktop's keyboard layout (\(names))" }
            return "not on every one of the desktop's keyboard layouts (\(names)), and which one is in use is not known"
        }
    }

    private static func isPrintableASCII(_ scalar: Unicode.Scalar) -> Bool {
        (0x20...0x7E).contains(scalar.value)
    }
}
