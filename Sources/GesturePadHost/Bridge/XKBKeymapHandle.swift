import CWaylandKeymap
import Glibc

/// One keymap compiled by xkbcommon (an `xkb_keymap *`, released with the handle): the one code
/// that calls xkbcommon and holds its pointers. `XKBKeymap` makes one, reads its text and
/// layouts, and lets it go. Confined to the thread that made it.
final class XKBKeymapHandle {
    /// `xkb_keymap *`: an incomplete C type, hence opaque.
    private let keymap: OpaquePointer

    private init(_ keymap: OpaquePointer) {
        self.keymap = keymap
    }

    deinit { xkb_keymap_unref(keymap) }

    /// The keymap of `layout` and `variant` ("us", "de", "us,ru") from the system's XKB data;
    /// nil when xkbcommon cannot compile it.
    convenience init?(layout: String, variant: String) {
        let compiled = Self.withContext { context in
            layout.withCString { layoutName in
                variant.withCString { variantName in
                    var names = xkb_rule_names(
                        rules: nil, model: nil, layout: layoutName, variant: variantName, options: nil)
                    return xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS)
                }
            }
        }
        guard let compiled else { return nil }
        self.init(compiled)
    }

    /// Keymap `text` (a compositor's, XKB_KEYMAP_FORMAT_TEXT_V1) compiled; nil when it does not compile.
    convenience init?(text: String) {
        let compiled = Self.withContext { context in
            xkb_keymap_new_from_string(context, text, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS)
        }
        guard let compiled else { return nil }
        self.init(compiled)
    }

    /// The keymap written again by xkbcommon as text (XKB_KEYMAP_FORMAT_TEXT_V1); nil when it cannot.
    var text: String? {
        guard let text = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1) else { return nil }
        defer { free(text) }
        return String(cString: text)
    }

    /// Every layout (XKB group) of the keymap, its keys in the order compositors search them for
    /// a keysym (key code, then level; `min ..< max`, as mutter and KWin loop).
    var layouts: [KeymapLayout] {
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

    /// Runs `body` with a new xkbcommon context that logs nothing below critical (a name or
    /// text that does not compile is the caller's to say, in one line: not xkbcommon's ten on
    /// stderr). The keymap it returns keeps the context alive as long as it needs it.
    private static func withContext(_ body: (OpaquePointer) -> OpaquePointer?) -> OpaquePointer? {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        defer { xkb_context_unref(context) }
        xkb_context_set_log_level(context, XKB_LOG_LEVEL_CRITICAL)
        return body(context)
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
