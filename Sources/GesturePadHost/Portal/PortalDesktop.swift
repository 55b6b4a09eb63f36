/// Which desktop's RemoteDesktop portal implementation serves the session, its release, and
/// what it does differently from the interface's documentation, so that the encoder can
/// correct it — each correction bounded by the releases that need it (`ReleaseRange`), so a
/// fixed release is not corrected twice. Pure.
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
struct PortalDesktop: Sendable, Hashable {
    /// Whose portal implementation it is.
    enum Kind: Sendable, Hashable {
        case gnome
        case kde
        /// Any other implementation: taken as the interface documents it.
        case other
    }

    var kind: Kind
    /// The desktop's release when known (KDE: KWin's, asked over D-Bus as the backend starts —
    /// the portal's own, which it does not publish); nil: unknown.
    var version: DesktopVersion?

    static let gnome = PortalDesktop(kind: .gnome)
    static let kde = PortalDesktop(kind: .kde)
    static let other = PortalDesktop(kind: .other)

    init(kind: Kind, version: DesktopVersion? = nil) {
        self.kind = kind
        self.version = version
    }

    /// From `XDG_CURRENT_DESKTOP` (a colon-separated list; the first known name wins).
    init(currentDesktop: String?) {
        for name in (currentDesktop ?? "").split(separator: ":") {
            switch name.uppercased() {
            case "GNOME": self.init(kind: .gnome); return
            case "KDE": self.init(kind: .kde); return
            default: continue
            }
        }
        self.init(kind: .other)
    }

    /// The KDE Plasma releases whose portal sends `-dy` for `NotifyPointerAxis` (commit
    /// a1fe11a0 in 5.27.0; unchanged on master in 2026-08: no fix known yet).
    static let kdeNegatedVerticalAxis = ReleaseRange(since: DesktopVersion(5, 27), fixed: nil)
    /// The KDE Plasma releases whose portal hands `NotifyPointerAxisDiscrete`'s steps on as
    /// axis values (5.27 — the first release with this code path here — to master in 2026-08).
    static let kdeStepsAsAxisValues = ReleaseRange(since: DesktopVersion(5, 27), fixed: nil)

    /// GNOME Shell appends the UI language's layout to every keymap it sets and never makes
    /// it current (`PortalKeymap.table`).
    var appendsLocaleLayout: Bool { kind == .gnome }

    /// The portal sends `-dy` to the compositor.
    var negatesVerticalAxis: Bool { kind == .kde && Self.kdeNegatedVerticalAxis.contains(version) }

    /// `NotifyPointerAxisDiscrete`'s steps arrive as axis values.
    var discreteStepsAreAxisValues: Bool { kind == .kde && Self.kdeStepsAsAxisValues.contains(version) }

    /// A new session first releases every button and modifier a killed predecessor may have
    /// left held.
    var releasesLeftovers: Bool { kind == .kde }

    /// Characters and character keys go as `NotifyKeyboardKeycode` — the key (and Shift or
    /// AltGr) that types the character on the first layout, kept only where every layout of
    /// the keymap types the same character with it — rather than as keysyms the portal would
    /// look up in the wrong layout, or in a US keymap of its own (up to 6.4; from 6.5 KWin
    /// looks them up, and key codes from its own keymap stay right: on every version).
    var typesByKeycode: Bool { kind == .kde }

    /// For the log: "GNOME", "KDE Plasma 5.27.5", "an unknown desktop".
    var name: String {
        switch kind {
        case .gnome: "GNOME"
        case .kde: version.map { "KDE Plasma \($0)" } ?? "KDE Plasma"
        case .other: "an unknown desktop"
        }
    }

    /// What GesturePad corrects of this portal, for the log ("vertical axis sign, step size").
    var corrections: [String] {
        var list: [String] = []
        if negatesVerticalAxis { list.append("the vertical scroll's sign") }
        if discreteStepsAreAxisValues { list.append("wheel steps' size") }
        if typesByKeycode { list.append("text typed by key code") }
        if releasesLeftovers { list.append("buttons a killed server left held") }
        return list
    }
}
