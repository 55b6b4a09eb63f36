import GestureControl

/// A backend that drives the computer.
public enum BackendKind: String, Sendable, Hashable, CaseIterable {
    /// The X server named by `DISPLAY`, through XTest (`X11Backend`).
    case x11
    /// A virtual input device through `/dev/uinput` (`UInputBackend`).
    case uinput
    /// A virtual multitouch touchpad through `/dev/uinput` (`TouchpadBackend`).
    case touchpad
    /// The RemoteDesktop portal of a Wayland desktop, over D-Bus (`PortalBackend`).
    case portal
    /// The virtual pointer and keyboard protocols of a wlroots compositor: Sway, Hyprland,
    /// river, labwc, Wayfire (`WlrootsBackend`).
    case wlroots

    /// The pointer acceleration a backend gets unless the user chose one: `adaptive` where
    /// nothing else accelerates the motion it sends (XTest; the portal's motion, which GNOME
    /// applies as it comes), `flat` where the desktop's input stack accelerates it with the
    /// user's own pointer settings (a uinput device goes through libinput) — never twice.
    public var defaultAcceleration: AccelerationProfile {
        switch self {
        case .x11, .portal, .wlroots: .adaptive
        case .uinput, .touchpad: .flat
        }
    }

    /// Whether two-finger scrolls coast after a fast lift (`ControlSettings.kineticScrolling`)
    /// unless the user chose: on where the desktop gets only wheel clicks, which have no
    /// "fingers lifted" moment to coast from (XTest, a uinput wheel); off for the portal, whose
    /// scroll ends with `finish` and the desktop coasts from there (twice would be too far),
    /// and for the native touchpad, whose touches the desktop scrolls and coasts itself.
    /// Whether the backend takes the touches themselves (the desktop's own touchpad), not the
    /// gestures: what `replay --actions` routes by. What a backend can *type* is its
    /// instance's (`ControlBackend.capabilities`): it depends on the desktop's layout.
    public var takesContacts: Bool { self == .touchpad }

    public var defaultKineticScrolling: Bool {
        switch self {
        case .x11, .uinput, .wlroots: true
        case .portal, .touchpad: false
        }
    }

}
