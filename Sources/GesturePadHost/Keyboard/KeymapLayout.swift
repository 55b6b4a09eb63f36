import GestureControl

/// One layout (XKB group) of a keymap: its keys, in the order compositors search them for a
/// keysym (key code, then level). Made by `XKBKeymap`; every keyboard-layout decision
/// (`EvdevLayout`, `PortalKeymap`) starts from these.
struct KeymapLayout: Sendable, Hashable {
    struct Key: Sendable, Hashable {
        var keycode: UInt32
        var level: UInt32
        var keysym: UInt32
        /// The character the keysym types (xkb_keysym_to_utf32), 0 for none.
        var scalar: UInt32
        /// The modifiers that select `level` on this key, when Shift and the third level's
        /// modifier (AltGr) alone can (nil: only others can, such as NumLock or Lock).
        var modifiers: LevelModifiers? = []
    }

    /// Shift and AltGr (XKB's LevelThree, the real modifier Mod5), as a level needs them.
    struct LevelModifiers: OptionSet, Sendable, Hashable {
        let rawValue: UInt8
        static let shift = LevelModifiers(rawValue: 1)
        static let levelThree = LevelModifiers(rawValue: 2)
    }

    var name: String
    var keys: [Key]

    /// The keysym of the Shift keys (Shift_L).
    static let shiftKeysym: UInt32 = 0xFFE1
    /// The keysym of the key that selects the third level (ISO_Level3_Shift: AltGr).
    static let levelThreeShiftKeysym: UInt32 = 0xFE03

    /// Whether a key's character is one to type, by the one rule every backend uses
    /// (`HostKey.isPrintable`: no control, surrogate or non-character); 0 is no character.
    static func isPrintable(_ scalar: UInt32) -> Bool {
        Unicode.Scalar(scalar).map(HostKey.isPrintable) ?? false
    }

    /// The layouts of a desktop's keymap the user can select: GNOME Shell appends the layout of
    /// the UI's language to every keymap it sets (`keyboardManager.js`, 43 to 50: for shortcuts
    /// like Alt+Ф) and never makes it current, so with `localeLayoutLast` a last layout of
    /// several is left out.
    static func selectable(_ layouts: [KeymapLayout], localeLayoutLast: Bool) -> [KeymapLayout] {
        localeLayoutLast && layouts.count > 1 ? Array(layouts.dropLast()) : layouts
    }
}
