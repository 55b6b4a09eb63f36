extension EvdevLayout {
    /// What a keyboard typing **key codes** types right whichever layout of `layouts` (a
    /// keymap's, in order) is active: the first layout's strokes (chosen as `init(_:)` does)
    /// among its keys that every other layout types the same character on at the same level
    /// (Shift and AltGr alike), AltGr's only where every layout has AltGr on the same key. The one
    /// policy for several layouts of the backends that send key codes — `uinput`, `touchpad`,
    /// and the portal on KDE (`PortalKeymap.keycodeTable`): which layout is active is not known
    /// to them, so a character is refused before typing rather than typed wrong. With `us,de`
    /// "y" and "z" are refused (each sits on the other's key) and "a" is kept; with `us,ru`
    /// every letter is refused and the digits are kept. One layout: its strokes unchanged. Nil
    /// for none.
    init?(agreedBy layouts: [KeymapLayout]) {
        guard let firstLayout = layouts.first else { return nil }
        let others = layouts.dropFirst().map { layout in
            Dictionary(layout.keys.map { (KeyPress(keycode: $0.keycode, modifiers: $0.modifiers), $0.scalar) }) { a, _ in a }
        }
        let levelThreeKey = EvdevLayout(firstLayout).levelThreeKey
        let levelThreeShared = layouts.dropFirst().allSatisfy { EvdevLayout($0).levelThreeKey == levelThreeKey }
        let agreed = EvdevLayout(firstLayout) { key, stroke in
            if stroke.levelThree && !levelThreeShared { return false }
            let press = KeyPress(keycode: key.keycode, modifiers: key.modifiers)
            return others.allSatisfy { $0[press] == key.scalar }
        }
        self.init(names: layouts.map(\.name), strokes: agreed.strokes, levelThreeKey: levelThreeKey, keysyms: agreed.keysyms)
    }

    /// A key pressed with the modifiers that select one of its levels.
    private struct KeyPress: Hashable {
        var keycode: UInt32
        var modifiers: KeymapLayout.LevelModifiers?
    }
}
