import CWaylandKeymap
import Glibc

/// XKB keymaps as text, through xkbcommon: the base of the keymap the `wlroots` backend's
/// virtual keyboard uploads — a layout compiled from rules names, or the seat's own keymap
/// written again in xkbcommon's shape (which `VirtualKeymap` edits).
enum XKBKeymapText {
    /// The keymap of `layout` (and `variant`) from the system's XKB data, as text, and its first
    /// layout's keys; nil when xkbcommon cannot compile it.
    static func compile(layout: String, variant: String = "") -> (text: String, layout: KeymapLayout)? {
        withContext { context in
            layout.withCString { layoutName in
                variant.withCString { variantName in
                    var names = xkb_rule_names(
                        rules: nil, model: nil, layout: layoutName, variant: variantName, options: nil)
                    return describe(xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS))
                }
            }
        }
    }

    /// Keymap `text` (a compositor's) compiled and written again by xkbcommon, and its first
    /// layout's keys; nil when it does not compile.
    static func compile(text: String) -> (text: String, layout: KeymapLayout)? {
        withContext { context in
            describe(xkb_keymap_new_from_string(context, text, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS))
        }
    }

    /// The layouts of keymap `text` as xkbcommon reads it (tests: what a client of the
    /// uploaded keymap sees); nil when it does not compile.
    static func layouts(of text: String) -> [KeymapLayout]? {
        withContext { context in
            guard
                let keymap = xkb_keymap_new_from_string(
                    context, text, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS)
            else { return nil }
            defer { xkb_keymap_unref(keymap) }
            return WaylandKeymap.layouts(of: keymap)
        }
    }

    /// Runs `body` with a new xkbcommon context that logs nothing below critical (a name or
    /// text that does not compile is the caller's to say, in one line).
    private static func withContext<T>(_ body: (OpaquePointer) -> T?) -> T? {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        defer { xkb_context_unref(context) }
        xkb_context_set_log_level(context, XKB_LOG_LEVEL_CRITICAL)
        return body(context)
    }

    /// A compiled keymap's text and first layout; releases the keymap.
    private static func describe(_ keymap: OpaquePointer?) -> (text: String, layout: KeymapLayout)? {
        guard let keymap else { return nil }
        defer { xkb_keymap_unref(keymap) }
        guard let first = WaylandKeymap.layouts(of: keymap).first,
            let text = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1)
        else { return nil }
        defer { free(text) }
        return (String(cString: text), first)
    }
}
