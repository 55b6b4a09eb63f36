/// An X11 keycode (8–255).
typealias Keycode = UInt32

/// A snapshot of the X server's core keyboard mapping (`XGetKeyboardMapping`): for each
/// keycode, its keysyms by column. Columns 0 and 1 are group 1 without and with Shift.
struct X11Keymap: Sendable, Hashable {
    /// Where a keysym can be typed from.
    struct Position: Sendable, Hashable {
        var keycode: Keycode
        /// Shift must be held (the keysym is in column 1 only).
        var shifted: Bool
    }

    let minimumKeycode: Keycode
    let keysymsPerKeycode: Int
    /// `keysymsPerKeycode` keysyms per keycode, from `minimumKeycode` on.
    private(set) var keysyms: [Keysym]

    init(minimumKeycode: Keycode, keysymsPerKeycode: Int, keysyms: [Keysym]) {
        self.minimumKeycode = minimumKeycode
        self.keysymsPerKeycode = max(keysymsPerKeycode, 1)
        self.keysyms = keysyms
    }

    /// The keycodes the snapshot covers (none when the server could not be asked).
    var keycodes: Range<Keycode> {
        minimumKeycode..<(minimumKeycode + Keycode(keysyms.count / keysymsPerKeycode))
    }

    /// The keysyms of `keycode`, by column (empty outside the map).
    func keysyms(of keycode: Keycode) -> ArraySlice<Keysym> {
        guard keycodes.contains(keycode) else { return [] }
        let start = Int(keycode - minimumKeycode) * keysymsPerKeycode
        return keysyms[start..<(start + keysymsPerKeycode)]
    }

    /// Where `keysym` is typed from, searching as XKeysymToKeycode does: column 0 of every
    /// keycode, lowest first, then column 1. Other columns (other groups, AltGr levels) are
    /// not used: typing from them needs modifiers this layout may not have.
    func position(of keysym: Keysym) -> Position? {
        guard keysym != X11Keysyms.none else { return nil }
        for column in 0..<min(2, keysymsPerKeycode) {
            var index = column
            var keycode = minimumKeycode
            while index < keysyms.count {
                if keysyms[index] == keysym { return Position(keycode: keycode, shifted: column == 1) }
                index += keysymsPerKeycode
                keycode += 1
            }
        }
        return nil
    }

    /// Keycodes with no keysym at all: free to bind for characters the layout lacks.
    var unboundKeycodes: [Keycode] {
        keycodes.filter { keysyms(of: $0).allSatisfy { $0 == X11Keysyms.none } }
    }

    /// Records a binding made with `XChangeKeyboardMapping` (`keysym` in columns 0 and 1,
    /// `NoSymbol` elsewhere), so that lookups see it before the server's MappingNotify.
    mutating func bind(_ keycode: Keycode, to keysym: Keysym) {
        guard keycodes.contains(keycode) else { return }
        let start = Int(keycode - minimumKeycode) * keysymsPerKeycode
        for column in 0..<keysymsPerKeycode {
            keysyms[start + column] = column < 2 ? keysym : X11Keysyms.none
        }
    }
}
