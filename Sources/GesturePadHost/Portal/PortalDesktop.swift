/// Which desktop's RemoteDesktop portal implementation serves the session, and what it does
/// differently from the interface's documentation, so that the encoder can correct it. Pure.
///
/// xdg-desktop-portal picks the implementation from `XDG_CURRENT_DESKTOP` (each `.portal`
/// file's `UseIn`), so that variable names it here too: `GNOME` → xdg-desktop-portal-gnome
/// (mutter does the input), `KDE` → xdg-desktop-portal-kde (KWin's fake input).
///
/// What xdg-desktop-portal-kde does, from its source (`src/waylandintegration.cpp`), seen in
/// Plasma 5.27.5 and unchanged on its master branch of 2026-08:
/// - `NotifyPointerAxis` sends `-dy` (`requestPointerAxis`: "requestPointerAxis(Qt::Vertical,
///   -y)" since commit a1fe11a0, v5.27.0; `axis(…VERTICAL…, -y)` on master): two fingers up
///   would scroll the wrong way; corrected by negating dy (`negatesVerticalAxis`).
/// - `NotifyPointerAxisDiscrete` hands `steps` over as the axis *value*
///   (`requestPointerAxisDiscrete` → `requestPointerAxis(axis, delta)`; master: `axis(…,
///   delta)`), not negated: one step is a tenth of a wheel click to a GTK client. Corrected
///   by sending `smoothUnitsPerDetent` per step (`discreteStepsAreAxisValues`).
/// - `NotifyKeyboardKeysym`, up to 6.4: the portal finds the key itself in its own keymap
///   (`Xkb::keycodeFromKeysym`), in the *first* layout whatever layout is active (its xkb
///   state never learns the active group), and in a default US keymap until the compositor's
///   keymap reaches it (the first text after the portal starts). From 6.5 (commit f37d5165)
///   KWin finds it. Typing by key code from the desktop's keymap is right on every version:
///   see `typesByKeycode`.
/// - Its fake input device outlives the sessions (5.27 makes one at start for all of them):
///   a button or key held when a client dies without releasing it (SIGKILL, a crash) stays
///   pressed — xdg-desktop-portal closes the session, nothing releases. Corrected when
///   GesturePad starts again (the systemd user unit restarts a crashed server after 5 s): a new
///   session first releases every button and modifier (`releasesLeftovers`).
/// - `finish` of `NotifyPointerAxis` is ignored and there is no finger axis source: a client
///   sees no axis stop (nothing to correct from here: kinetic scrolling's end is not shown).
enum PortalDesktop: Sendable, Hashable {
    case gnome
    case kde
    /// Any other implementation: taken as the interface documents it.
    case other

    /// From `XDG_CURRENT_DESKTOP` (a colon-separated list; the first known name wins).
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

    /// GNOME Shell appends the UI language's layout to every keymap it sets and never makes
    /// it current (`PortalKeymap.table`).
    var appendsLocaleLayout: Bool { self == .gnome }

    /// The portal sends `-dy` to the compositor.
    var negatesVerticalAxis: Bool { self == .kde }

    /// `NotifyPointerAxisDiscrete`'s steps arrive as axis values.
    var discreteStepsAreAxisValues: Bool { self == .kde }

    /// A new session first releases every button and modifier a killed predecessor may have
    /// left held.
    var releasesLeftovers: Bool { self == .kde }

    /// Characters and character keys go as `NotifyKeyboardKeycode` — the key (and Shift or
    /// AltGr) that types the character on the first layout, kept only where every layout of
    /// the keymap types the same character with it — rather than as keysyms the portal would
    /// look up in the wrong layout, or in a US keymap of its own.
    var typesByKeycode: Bool { self == .kde }

    /// For the log: "GNOME", "KDE Plasma", "an unknown desktop".
    var name: String {
        switch self {
        case .gnome: "GNOME"
        case .kde: "KDE Plasma"
        case .other: "an unknown desktop"
        }
    }
}
