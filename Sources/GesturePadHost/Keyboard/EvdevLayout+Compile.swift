import FoundationEssentials
import GestureControl
import GesturePadSystem
import Logging

extension EvdevLayout {
    /// The layout a user names (`control.keyboardLayout`, `--keyboard-layout`): an XKB layout
    /// and optionally its variant, written `de`, `de+nodeadkeys` (GNOME's input sources) or
    /// `de(nodeadkeys)` (XKB's), compiled by xkbcommon from the system's XKB data. Throws a
    /// one-line `ControlBackendError` for a name that is not one layout XKB knows.
    static func compile(_ name: String) throws -> EvdevLayout {
        guard let (layout, variant) = parse(name) else {
            throw ControlBackendError.keyboardLayout(
                "keyboard layout \"\(name)\": write one XKB layout, optionally with its variant (de, de+nodeadkeys)")
        }
        guard let layouts = XKBKeymap(layout: layout, variant: variant)?.layouts, let first = layouts.first,
            layouts.count == 1, !first.keys.isEmpty
        else {
            throw ControlBackendError.keyboardLayout(
                "keyboard layout \"\(name)\": XKB has no such layout (the names are in /usr/share/X11/xkb/rules/evdev.lst)")
        }
        return EvdevLayout(first)
    }

    /// `de` → ("de", ""); `de+nodeadkeys` and `de(nodeadkeys)` → ("de", "nodeadkeys"); nil for
    /// an empty name, several layouts, or characters XKB names do not have.
    static func parse(_ name: String) -> (layout: String, variant: String)? {
        var text = name.trimmingWhitespace()
        var variant = ""
        if text.hasSuffix(")"), let open = text.firstIndex(of: "(") {
            variant = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
            text = String(text[..<open])
        } else if let plus = text.firstIndex(of: "+") {
            variant = String(text[text.index(after: plus)...])
            text = String(text[..<plus])
        }
        func isName(_ part: String) -> Bool {
            part.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "_" || $0 == "-")
            }
        }
        guard !text.isEmpty, isName(text), isName(variant) else { return nil }
        return (text, variant)
    }

    /// What a backend typing with this layout can type (touches pass through for `touchpad`).
    func capabilities(takesContacts: Bool) -> ControlCapabilities {
        guard let table else { return ControlCapabilities(characters: .usLayoutASCII, takesContacts: takesContacts) }
        return ControlCapabilities(characters: .desktopLayout(table), takesContacts: takesContacts)
    }
}
