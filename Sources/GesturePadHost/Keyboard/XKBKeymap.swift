import CWaylandKeymap
import Glibc

/// A keymap compiled by xkbcommon: its text (as xkbcommon writes it) and its layouts, each
/// with its keys in the order compositors search them. Compiled from rules names (a layout the
/// user names, the X server's) or from a keymap's text (the seat's, `SeatKeymapClient`). The
/// one place that reads xkbcommon's keymaps; a value once made.
struct XKBKeymap: Sendable, Hashable {
    /// The keymap as text (XKB_KEYMAP_FORMAT_TEXT_V1): what the `wlroots` backend's virtual
    /// keyboard takes as the base of the keymap it uploads.
    var text: String
    /// Its layouts (XKB groups), in order; at least one.
    var layouts: [KeymapLayout]

    private init(text: String, layouts: [KeymapLayout]) {
        self.text = text
        self.layouts = layouts
    }

    /// The keymap of `layout` (and `variant`; "us", "de", "us,ru") from the system's XKB data;
    /// nil when xkbcommon cannot compile it.
    init?(layout: String, variant: String = "") {
        let compiled: XKBKeymap? = Self.withContext { context in
            layout.withCString { layoutName in
                variant.withCString { variantName in
                    var names = xkb_rule_names(
                        rules: nil, model: nil, layout: layoutName, variant: variantName, options: nil)
                    return Self.describe(xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS))
                }
            }
        }
        guard let compiled else { return nil }
        self = compiled
    }

    /// Keymap `text` (a compositor's) compiled and written again by xkbcommon; nil when it does
    /// not compile.
    init?(text: String) {
        let compiled: XKBKeymap? = Self.withContext { context in
            Self.describe(xkb_keymap_new_from_string(context, text, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS))
        }
        guard let compiled else { return nil }
        self = compiled
    }

    /// Runs `body` with a new xkbcommon context that logs nothing below critical (a name or
    /// text that does not compile is the caller's to say, in one line: not xkbcommon's ten on
    /// stderr).
    private static func withContext<T>(_ body: (OpaquePointer) -> T?) -> T? {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        defer { xkb_context_unref(context) }
        xkb_context_set_log_level(context, XKB_LOG_LEVEL_CRITICAL)
        return body(context)
    }

    /// A compiled keymap's text and layouts; releases the keymap.
    private static func describe(_ keymap: OpaquePointer?) -> XKBKeymap? {
        guard let keymap else { return nil }
        defer { xkb_keymap_unref(keymap) }
        let layouts = Self.layouts(of: keymap)
        guard !layouts.isEmpty, let text = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1) else {
            return nil
        }
        defer { free(text) }
        return XKBKeymap(text: String(cString: text), layouts: layouts)
    }
}
