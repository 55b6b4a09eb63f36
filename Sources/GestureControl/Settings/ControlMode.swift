/// Which backend drives the computer (`--control`, the configuration's `control.backend`).
public enum ControlMode: String, Sendable, Hashable, CaseIterable {
    /// The first backend that works for the session the server runs in; none is not an error.
    case auto
    /// The X server named by `DISPLAY`, through XTest.
    case x11
    /// A virtual input device through `/dev/uinput`.
    case uinput
    /// A virtual multitouch touchpad through `/dev/uinput`: the desktop does the gestures.
    case touchpad
    /// The RemoteDesktop portal of a Wayland session.
    case portal
    /// The virtual pointer and keyboard of a wlroots compositor (Sway …) over Wayland.
    case wlroots
    /// No control: recognize, draw, log and run hooks only.
    case off
}
