/// The desktop's keyboard layout as a backend learns it from the compositor (the `portal`
/// backend: the Wayland keymap): the characters it can type (`Table`), and the key that types
/// each (`Stroke`). Values only: the backend's thread hands each new table to the server as an
/// input (`ControlBackend.observeLayout`), the server keeps it in its `ControlContext`
/// (`ControlCapabilities.Characters.desktopLayout`), and the protocol layer refuses a `text` or
/// character `key` the table lacks before anything is typed — desktops that take keysyms
/// (RemoteDesktop's `NotifyKeyboardKeysym`) drop, without a word, every keysym their active
/// layout has no key for. The backend types with the same table it handed over.
public enum DesktopLayout {
    /// A key that types a character: its evdev key code, pressed while the modifier keys
    /// (evdev key codes: Shift, AltGr) its level needs are held.
    public struct Stroke: Sendable, Hashable {
        public var keycode: UInt32
        public var modifiers: [UInt32]

        public init(keycode: UInt32, modifiers: [UInt32] = []) {
            self.keycode = keycode
            self.modifiers = modifiers
        }
    }

    /// One layout's (or several layouts' common) typeable characters.
    public struct Table: Sendable, Hashable {
        /// Unicode scalar value → the keysym that types it on the layout.
        public var keysyms: [UInt32: UInt32]
        /// The layouts' names, as the keymap gives them ("English (US)").
        public var names: [String]
        /// Unicode scalar value → the key that types it, for desktops typed by key code (KDE
        /// Plasma's portal); empty for those typed by keysym. Same characters as `keysyms`.
        public var strokes: [UInt32: Stroke]

        public init(keysyms: [UInt32: UInt32], names: [String], strokes: [UInt32: Stroke] = [:]) {
            self.keysyms = keysyms
            self.names = names
            self.strokes = strokes
        }

        /// The keysym that types `scalar`, if the layout has one.
        public func keysym(for scalar: Unicode.Scalar) -> UInt32? { keysyms[scalar.value] }
    }
}
