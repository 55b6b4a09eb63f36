import Synchronization

/// The characters the desktop's keyboard layout can type, and the keysym that types each, as
/// a backend last learnt them from the compositor (the `portal` backend: the Wayland keymap).
/// Shared by that backend, which replaces the table when the layout changes, and the protocol
/// layer, which refuses a `text` or character `key` the table lacks before anything is typed:
/// desktops that take keysyms (RemoteDesktop's `NotifyKeyboardKeysym`) drop, without a word,
/// every keysym their active layout has no key for.
///
/// Safe from any thread; equal only to itself.
public final class DesktopLayout: Sendable, Hashable {
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

    private let table: Mutex<Table?>

    /// A layout not known yet (`nil`) or known.
    public init(_ table: Table? = nil) {
        self.table = Mutex(table)
    }

    /// The table now; nil while the layout is unknown.
    public var current: Table? { table.withLock { $0 } }

    /// Replaces the table (nil: the layout is unknown again).
    public func update(_ newTable: Table?) {
        table.withLock { $0 = newTable }
    }

    public static func == (lhs: DesktopLayout, rhs: DesktopLayout) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
