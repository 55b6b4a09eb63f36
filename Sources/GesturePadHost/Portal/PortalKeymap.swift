import GestureControl

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
            case 1: firstLevel[KeymapLayout.shiftKeysym] != nil
            case 2: firstLevel[KeymapLayout.levelThreeShiftKeysym] != nil
            default: false
            }
        }
        var typed: [UInt32: UInt32] = [:]
        for key in layout.keys where KeymapLayout.isPrintable(key.scalar) && typed[key.scalar] == nil {
            guard let level = firstLevel[key.keysym], reachable(level) else { continue }
            typed[key.scalar] = key.keysym
        }
        return typed
    }

    /// What the desktop types with these layouts, by keysym. Which one is current is not
    /// known to a client without keyboard focus, so with several only the characters every one
    /// of them types with the same keysym are kept: the compositor looks the keysym up in the
    /// active layout, so each comes out right whichever it is (the keysym-typing form of
    /// `EvdevLayout.init(agreedBy:)`'s policy). With `localeLayoutLast`, GNOME's appended
    /// layout is left out (`KeymapLayout.selectable`). Nil for no layout.
    static func table(_ layouts: [KeymapLayout], localeLayoutLast: Bool = false) -> DesktopLayout.Table? {
        let candidates = KeymapLayout.selectable(layouts, localeLayoutLast: localeLayoutLast)
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

    /// The characters that come out right by key code whichever layout is active
    /// (`EvdevLayout.init(agreedBy:)`), with the key and modifier keys that type each: Shift
    /// (KEY_LEFTSHIFT) and the layout's AltGr key as the level needs.
    static func keycodeTable(_ layouts: [KeymapLayout]) -> DesktopLayout.Table? {
        guard let agreed = EvdevLayout(agreedBy: layouts) else { return nil }
        var table: [UInt32: DesktopLayout.Stroke] = [:]
        for (scalar, stroke) in agreed.strokes {
            var held: [UInt32] = []
            if stroke.shifted { held.append(UInt32(EvdevKeys.leftShift)) }
            if stroke.levelThree, let key = agreed.levelThreeKey { held.append(UInt32(key)) }
            table[scalar] = DesktopLayout.Stroke(keycode: UInt32(stroke.code), modifiers: held)
        }
        return DesktopLayout.Table(keysyms: agreed.keysyms, names: agreed.names, strokes: table)
    }
}
