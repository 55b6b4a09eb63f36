/// Which desktop the session runs, from `XDG_CURRENT_DESKTOP` (a colon-separated list; the
/// first known name wins), as xdg-desktop-portal picks its implementation: what the portal
/// corrects (`PortalDesktop`) and whether the desktop's keymaps end with a layout nobody
/// selects (`appendsLocaleLayout`) depend on it. Pure.
enum DesktopKind: Sendable, Hashable {
    case gnome
    case kde
    /// Any other desktop: taken as the interfaces document it.
    case other

    init(currentDesktop: String?) {
        for name in (currentDesktop ?? "").split(separator: ":") {
            switch name.uppercased() {
            case "GNOME": self = .gnome; return
            case "KDE": self = .kde; return
            default: continue
            }
        }
        self = .other
    }

    /// GNOME Shell appends the UI language's layout to every keymap it sets (`keyboardManager.js`,
    /// 43 to 50) and never makes it current (`KeymapLayout.selectable`).
    var appendsLocaleLayout: Bool { self == .gnome }
}
