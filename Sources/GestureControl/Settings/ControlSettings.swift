import GestureEngine

/// Everything that shapes how a touchpad connection drives the computer, with its defaults
/// and where they come from. Command-line flags and the configuration file's `control:`
/// section fill it; the page's settings sheet may override per connection.
public struct ControlSettings: Sendable, Hashable {
    /// Pointer gain factor (`--speed`), applied on top of the acceleration curve. Default 1.
    public var speed: Double = 1.0
    /// `--acceleration adaptive|flat`. Default adaptive, as libinput's touchpad default.
    public var acceleration: AccelerationProfile = .adaptive
    /// The adaptive curve's shape.
    public var curve = AccelerationCurve()
    /// Content follows the fingers (fingers up scroll down). Default on, as on phones and
    /// macOS / GNOME touchpads.
    public var naturalScroll = true
    /// Wheel detents per `scrollDistancePerDetent` CSS px of two-finger travel, as a factor.
    public var scrollSpeed: Double = 1.0
    /// CSS px of two-finger travel that make one wheel detent at scroll speed 1 (a detent is
    /// 15° of a wheel; libinput maps 15° to about this much touchpad travel at phone sizes).
    public var scrollDistancePerDetent: Double = 24
    /// A two-finger scroll lifted faster than `kinetic.minimumVelocity` keeps scrolling and
    /// comes to rest along `kinetic` (kinetic scrolling, `ScrollCoast`), for backends whose
    /// desktop cannot coast a wheel by itself. On here and, unless the configuration says
    /// otherwise, for `x11` and `uinput`; off for `portal`, whose desktop coasts after the
    /// scroll's `finish` (`BackendKind.defaultKineticScrolling`). Touches passed through to a
    /// native touchpad are never scrolled by the mapping, so it does not apply there.
    public var kineticScrolling = true
    /// The coast's curve and thresholds.
    public var kinetic = KineticCurve()
    /// Taps click (1 / 2 / 3 fingers → `tapButtons`). Default on.
    public var tapToClick = true
    /// A tap then, within `multiTapInterval`, a touch that moves drags with the button held.
    public var tapAndDrag = true
    /// After a drag the lifted finger keeps the button down until the next tap or
    /// `dragLockTimeout`. Default off, as libinput.
    public var dragLock = false
    /// How long (ms, page clock) a drag lock waits for the finger to come back.
    public var dragLockTimeout: Double = 1_000
    /// Buttons clicked by taps of one, two and three fingers.
    public var tapButtons: [HostButton] = [.left, .right, .middle]
    /// Swap left and right for taps and for a mouse on the page.
    public var leftHanded = false
    /// Pinch zooms (Control + wheel). Default on.
    public var pinchZoom = true
    /// The change of pinch scale that makes one zoom wheel step (1.25: four steps double).
    public var zoomStep: Double = 1.25
    /// The key combination for each three-finger swipe direction; a missing entry does nothing.
    public var swipeKeys: [SwipeDirection: KeyCombination] = ControlSettings.defaultSwipeKeys
    /// The gestures hooks claim (`claim: true`): the mapping leaves them to the hook. None by
    /// default, so the mapping is CONTROL.md's whole (docs/control.md "Gestures a hook claims").
    /// The server fills it from `hooks:`; the page's settings sheet does not change it.
    public var claims = GestureClaims()
    /// Server-clock ms without any message after which whatever the connection holds is
    /// released (the phone went away without closing). The page pings every 2 s when idle.
    public var releaseAfterSilence: Double = 10_000

    /// Three-finger swipes: browser forward / back, the overview, show the desktop.
    public static let defaultSwipeKeys: [SwipeDirection: KeyCombination] = [
        .left: KeyCombination(modifiers: [.alt], key: .named(.arrowRight)),
        .right: KeyCombination(modifiers: [.alt], key: .named(.arrowLeft)),
        .up: KeyCombination(key: .named(.meta)),
        .down: KeyCombination(modifiers: [.meta], key: .character("d")),
    ]

    public init() {}

    /// These settings for the connection of `session`: only the claims that apply to it.
    public func claiming(for session: String) -> ControlSettings {
        var settings = self
        settings.claims = claims.only(session: session)
        return settings
    }

    /// The button a tap with `fingers` fingers clicks (left-handed applied), or nil.
    public func tapButton(fingers: Int) -> HostButton? {
        guard fingers >= 1, fingers <= tapButtons.count else { return nil }
        let button = tapButtons[fingers - 1]
        return leftHanded ? button.mirrored : button
    }
}
