import GestureControl

/// One layout (XKB group) of the desktop's keymap: its keys, in the order compositors search
/// them for a keysym (key code, then level). Made by `WaylandKeymap`.
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
}

/// Which characters a RemoteDesktop portal can type through `NotifyKeyboardKeysym`, and with
/// which keysym, given the desktop's keymap. Pure.
///
/// What the desktops do with a keysym (their sources): mutter (GNOME 43 to 50,
/// `meta-virtual-input-device-native.c`) looks for the first key of the *current* layout that
/// has it, by key code then level, and presses it with Shift for level index 1 and
/// ISO_Level3_Shift (AltGr) for level index 2, each when the layout has that modifier; a
/// keysym the layout lacks is dropped with a log line only ("No keycode found for keyval … in
/// current group"), and a key at a higher level is pressed without its modifiers (the wrong
/// character). KWin's fake input
/// and xdg-desktop-portal-hyprland search the same way. The keysym must be the one the layout
/// lists: "€" on a German layout is EuroSign (0x20AC), not the Unicode keysym 0x10020AC, and
/// Cyrillic letters have their own legacy keysyms.
enum PortalKeymap {
    static let shift: UInt32 = 0xFFE1
    static let levelThreeShift: UInt32 = 0xFE03

    /// Character (scalar value) → the keysym that types it on `layout`: the first key (in
    /// search order) producing the character whose keysym's first key sits at a level the
    /// compositor can reach. Only printable characters (not C0, DEL or C1).
    static func characters(of layout: KeymapLayout) -> [UInt32: UInt32] {
        var firstLevel: [UInt32: UInt32] = [:]
        for key in layout.keys where firstLevel[key.keysym] == nil {
            firstLevel[key.keysym] = key.level
        }
        func reachable(_ level: UInt32) -> Bool {
            switch level {
            case 0: true
            case 1: firstLevel[shift] != nil
            case 2: firstLevel[levelThreeShift] != nil
            default: false
            }
        }
        var typed: [UInt32: UInt32] = [:]
        for key in layout.keys where isPrintable(key.scalar) && typed[key.scalar] == nil {
            guard let level = firstLevel[key.keysym], reachable(level) else { continue }
            typed[key.scalar] = key.keysym
        }
        return typed
    }

    /// What the desktop types with these layouts. Which one is current is not known to a
    /// client without keyboard focus, so with several only the characters every one of them
    /// types with the same keysym are kept. GNOME Shell appends the layout of the UI's
    /// language to every keymap it sets (`keyboardManager.js`, 43 to 50: for shortcuts like
    /// Alt+Ф) and never makes it current: with `localeLayoutLast`, a last layout of several
    /// is left out. Nil for no layout.
    static func table(_ layouts: [KeymapLayout], localeLayoutLast: Bool = false) -> DesktopLayout.Table? {
        let candidates = localeLayoutLast && layouts.count > 1 ? Array(layouts.dropLast()) : layouts
        guard let first = candidates.first else { return nil }
        let others = candidates.dropFirst().map(characters(of:))
        let common = characters(of: first).filter { scalar, keysym in others.allSatisfy { $0[scalar] == keysym } }
        return DesktopLayout.Table(keysyms: common, names: candidates.map(\.name))
    }

    /// What the desktop types with these layouts, for `desktop`: by keysym (`table(_:localeLayoutLast:)`)
    /// or, where the portal looks keysyms up wrongly, by key code (`keycodeTable`).
    static func table(_ layouts: [KeymapLayout], for desktop: PortalDesktop) -> DesktopLayout.Table? {
        desktop.typesByKeycode
            ? keycodeTable(layouts) : table(layouts, localeLayoutLast: desktop.appendsLocaleLayout)
    }

    /// The characters that come out right by key code whichever layout is active: each
    /// character's stroke on the first layout (`EvdevLayout`, as the uinput keyboard types it:
    /// the key, Shift and AltGr as its level needs), kept only when every layout of the keymap
    /// types the same character with the same key and modifiers, and has AltGr on the same key
    /// when the stroke needs it. With us and de, "y" and "z" are refused (each sits on the
    /// other's key), "a" is kept.
    static func keycodeTable(_ layouts: [KeymapLayout]) -> DesktopLayout.Table? {
        guard !layouts.isEmpty else { return nil }
        let strokes = layouts.map(EvdevLayout.init)
        let others = layouts.dropFirst().map { layout in
            Dictionary(layout.keys.map { (KeyPress(keycode: $0.keycode, modifiers: $0.modifiers), $0.scalar) }) { a, _ in a }
        }
        let levelThreeShared = strokes.allSatisfy { $0.levelThreeKey == strokes[0].levelThreeKey }
        var keysyms: [UInt32: UInt32] = [:]
        var table: [UInt32: DesktopLayout.Stroke] = [:]
        for (scalar, stroke) in strokes[0].strokes {
            if stroke.levelThree && !levelThreeShared { continue }
            var modifiers: KeymapLayout.LevelModifiers = []
            if stroke.shifted { modifiers.insert(.shift) }
            if stroke.levelThree { modifiers.insert(.levelThree) }
            let press = KeyPress(keycode: UInt32(stroke.code) + 8, modifiers: modifiers)
            guard others.allSatisfy({ $0[press] == scalar }), let keysym = strokes[0].keysyms[scalar] else { continue }
            var held: [UInt32] = []
            if stroke.shifted { held.append(UInt32(EvdevKeys.leftShift)) }
            if stroke.levelThree, let key = strokes[0].levelThreeKey { held.append(UInt32(key)) }
            keysyms[scalar] = keysym
            table[scalar] = DesktopLayout.Stroke(keycode: UInt32(stroke.code), modifiers: held)
        }
        return DesktopLayout.Table(keysyms: keysyms, names: layouts.map(\.name), strokes: table)
    }

    /// A key pressed with the modifiers that select one of its levels.
    private struct KeyPress: Hashable {
        var keycode: UInt32
        var modifiers: KeymapLayout.LevelModifiers?
    }

    private static func isPrintable(_ scalar: UInt32) -> Bool {
        scalar >= 0x20 && !(0x7F...0x9F).contains(scalar)
    }
}
