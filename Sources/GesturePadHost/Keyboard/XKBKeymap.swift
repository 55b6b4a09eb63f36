/// A keymap compiled by xkbcommon: its text (as xkbcommon writes it) and its layouts, each
/// with its keys in the order compositors search them. Compiled from rules names (a layout the
/// user names, the X server's) or from a keymap's text (the seat's, `SeatKeymapClient`), by
/// `XKBKeymapHandle` (Bridge/, the xkbcommon calls). A value once made.
struct XKBKeymap: Sendable, Hashable {
    /// The keymap as text (XKB_KEYMAP_FORMAT_TEXT_V1): what the `wlroots` backend's virtual
    /// keyboard takes as the base of the keymap it uploads.
    var text: String
    /// Its layouts (XKB groups), in order; at least one.
    var layouts: [KeymapLayout]

    /// The keymap of `layout` (and `variant`; "us", "de", "us,ru") from the system's XKB data;
    /// nil when xkbcommon cannot compile it.
    init?(layout: String, variant: String = "") {
        guard let compiled = XKBKeymapHandle(layout: layout, variant: variant) else { return nil }
        self.init(compiled)
    }

    /// Keymap `text` (a compositor's) compiled and written again by xkbcommon; nil when it does
    /// not compile.
    init?(text: String) {
        guard let compiled = XKBKeymapHandle(text: text) else { return nil }
        self.init(compiled)
    }

    /// A compiled keymap's text and layouts; nil when it has no layout or cannot be written.
    private init?(_ compiled: XKBKeymapHandle) {
        let layouts = compiled.layouts
        guard !layouts.isEmpty, let text = compiled.text else { return nil }
        self.text = text
        self.layouts = layouts
    }
}
