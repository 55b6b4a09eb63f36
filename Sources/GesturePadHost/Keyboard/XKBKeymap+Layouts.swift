import CWaylandKeymap

extension XKBKeymap {
    /// Every layout of `keymap`, its keys in the order compositors search them for a keysym
    /// (key code, then level; `min ..< max`, as mutter and KWin loop).
    static func layouts(of keymap: OpaquePointer) -> [KeymapLayout] {
        let minimum = xkb_keymap_min_keycode(keymap)
        let maximum = xkb_keymap_max_keycode(keymap)
        let masks = ModifierMasks(keymap)
        return (0..<xkb_keymap_num_layouts(keymap)).map { layout in
            var keys: [KeymapLayout.Key] = []
            for keycode in minimum..<max(minimum, maximum) {
                for level in 0..<xkb_keymap_num_levels_for_key(keymap, keycode, layout) {
                    var symbols: UnsafePointer<xkb_keysym_t>?
                    let count = xkb_keymap_key_get_syms_by_level(keymap, keycode, layout, level, &symbols)
                    guard count > 0, let symbols else { continue }
                    let modifiers = masks.modifiers(keymap, keycode: keycode, layout: layout, level: level)
                    for index in 0..<Int(count) {
                        let keysym = symbols[index]
                        keys.append(
                            .init(
                                keycode: keycode, level: level, keysym: keysym, scalar: xkb_keysym_to_utf32(keysym),
                                modifiers: modifiers))
                    }
                }
            }
            let name = xkb_keymap_layout_get_name(keymap, layout).map { String(cString: $0) } ?? "layout \(layout + 1)"
            return KeymapLayout(name: name, keys: keys)
        }
    }

    /// The real modifiers of a keymap that select levels GesturePad can reach by pressing keys:
    /// Shift, and Mod5 (where XKB puts LevelThree, AltGr).
    private struct ModifierMasks {
        let shift: xkb_mod_mask_t
        let levelThree: xkb_mod_mask_t

        init(_ keymap: OpaquePointer) {
            func mask(_ name: String) -> xkb_mod_mask_t {
                let index = xkb_keymap_mod_get_index(keymap, name)
                return index == XKB_MOD_INVALID ? 0 : 1 << index
            }
            shift = mask("Shift")
            levelThree = mask("Mod5")
        }

        /// The fewest of Shift and AltGr that select `level` of the key (nil: none do).
        func modifiers(_ keymap: OpaquePointer, keycode: UInt32, layout: UInt32, level: UInt32)
            -> KeymapLayout.LevelModifiers?
        {
            var found = [xkb_mod_mask_t](repeating: 0, count: 16)
            let count = xkb_keymap_key_get_mods_for_level(keymap, keycode, layout, level, &found, found.count)
            var best: KeymapLayout.LevelModifiers?
            for mask in found.prefix(Int(count)) where mask & ~(shift | levelThree) == 0 {
                var modifiers: KeymapLayout.LevelModifiers = []
                if mask & shift != 0 { modifiers.insert(.shift) }
                if mask & levelThree != 0 { modifiers.insert(.levelThree) }
                if best.map({ modifiers.rawValue.nonzeroBitCount < $0.rawValue.nonzeroBitCount }) ?? true {
                    best = modifiers
                }
            }
            return best
        }
    }
}
