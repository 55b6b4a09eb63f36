import CWaylandKeymap
import Glibc

/// The XKB text of a keyboard layout compiled by xkbcommon from rules names, from the system's
/// XKB data: the base of the keymap the `wlroots` backend's virtual keyboard uploads.
enum XKBKeymapText {
    /// The keymap of `layout` (and `variant`) as text, and its first layout's keys; nil when
    /// xkbcommon cannot compile it.
    static func compile(layout: String, variant: String = "") -> (text: String, layout: KeymapLayout)? {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        defer { xkb_context_unref(context) }
        xkb_context_set_log_level(context, XKB_LOG_LEVEL_CRITICAL)
        return layout.withCString { layoutName in
            variant.withCString { variantName in
                var names = xkb_rule_names(rules: nil, model: nil, layout: layoutName, variant: variantName, options: nil)
                guard let keymap = xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS) else {
                    return nil
                }
                defer { xkb_keymap_unref(keymap) }
                guard let first = WaylandKeymap.layouts(of: keymap).first,
                    let text = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1)
                else { return nil }
                defer { free(text) }
                return (String(cString: text), first)
            }
        }
    }

    /// The layouts of keymap `text` as xkbcommon reads it (tests: what a client of the
    /// uploaded keymap sees); nil when it does not compile.
    static func layouts(of text: String) -> [KeymapLayout]? {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        defer { xkb_context_unref(context) }
        xkb_context_set_log_level(context, XKB_LOG_LEVEL_CRITICAL)
        guard let keymap = xkb_keymap_new_from_string(context, text, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS)
        else { return nil }
        defer { xkb_keymap_unref(keymap) }
        return WaylandKeymap.layouts(of: keymap)
    }
}
