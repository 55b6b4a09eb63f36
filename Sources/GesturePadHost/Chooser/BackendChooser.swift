import GestureControl

/// What `BackendChooser` decided.
public enum BackendChoice: Sendable, Hashable {
    /// Open this backend.
    case backend(BackendKind)
    /// Run without control, and say why (not an error: `--control auto` found nothing, or
    /// `--control off`).
    case off(reason: String)
    /// The backend asked for explicitly cannot work here: print the message and exit.
    case failure(String)
}

/// Picks the backend for `--control`, from the session's facts alone (pure: no I/O). Every
/// message is one line naming what is missing and pointing to docs/control.md.
///
/// `auto` (docs/control.md says why):
/// - `/dev/uinput` writable (the user installed the udev rule): touchpad, in every session — the
///   desktop's own touchpad handling (its settings, gestures, kinetic scrolling) beats anything
///   the server can imitate, and a uinput device reaches every session, X11 or Wayland;
/// - else a Wayland session (`WAYLAND_DISPLAY`): the portal if it offers RemoteDesktop (GNOME,
///   KDE: the desktop's consent), else wlroots if the compositor offers the virtual pointer and
///   keyboard protocols (Sway and the other wlroots compositors, which have no RemoteDesktop
///   portal), else off. X11 is never picked there: XTest through XWayland would reach X
///   clients only;
/// - else an X session (`DISPLAY`): x11;
/// - else off.
/// `uinput` (a relative pointer) is never picked by `auto`: ask for it by name where the
/// desktop's input stack has no touchpad support.
///
/// An explicit `x11`, `uinput`, `touchpad` or `portal` that cannot work is a failure, not a
/// silent off.
public enum BackendChooser {
    /// The backend for `mode` in a session with these facts, or why there is none.
    public static func choose(_ mode: ControlMode, in environment: ControlEnvironment) -> BackendChoice {
        switch mode {
        case .off:
            return .off(reason: "control is off (--control off)")
        case .x11:
            return environment.hasDisplay ? .backend(.x11) : .failure(Message.x11WithoutDisplay)
        case .uinput:
            return environment.uinputWritable ? .backend(.uinput) : .failure(Message.uinputNotWritable)
        case .touchpad:
            return environment.uinputWritable ? .backend(.touchpad) : .failure(Message.uinputNotWritable)
        case .portal:
            guard environment.portalOffersRemoteDesktop else {
                return .failure(Message.portalMissing(environment.portalAbsence))
            }
            return .backend(.portal)
        case .wlroots:
            guard environment.hasWaylandDisplay else { return .failure(Message.wlrootsWithoutWayland) }
            return environment.compositorOffersVirtualInput ? .backend(.wlroots) : .failure(Message.wlrootsNotOffered)
        case .auto:
            return chooseAutomatically(in: environment)
        }
    }

    private static func chooseAutomatically(in environment: ControlEnvironment) -> BackendChoice {
        if environment.uinputWritable { return .backend(.touchpad) }
        if environment.hasWaylandDisplay {
            if environment.portalOffersRemoteDesktop { return .backend(.portal) }
            if environment.compositorOffersVirtualInput { return .backend(.wlroots) }
            return .off(reason: Message.waylandWithoutMeans)
        }
        if environment.hasDisplay { return .backend(.x11) }
        return .off(reason: Message.nothingAvailable)
    }

    /// The messages, kept together so that they read alike.
    enum Message {
        static let x11WithoutDisplay = "--control x11 needs an X session but DISPLAY is not set: gesturepad help control"
        static let uinputNotWritable = "/dev/uinput is not writable: add the udev rule: gesturepad help control"
        /// `--control portal` where the portal was asked and said no, or could not be asked.
        static func portalMissing(_ why: ControlBackendError?) -> String {
            switch why {
            case .bus(let reason)?:
                "--control portal asks the desktop portal over the session bus, and there is none here (\(reason)): run it inside the desktop session: gesturepad help control"
            case let other?: portalNotAvailable + " (\(other.message))"
            case nil: portalNotAvailable
            }
        }
        static let portalNotAvailable =
            "the desktop portal on the session bus does not offer RemoteDesktop (GNOME and KDE do; wlroots compositors such as Sway do not: use --control wlroots there): gesturepad help control"
        static let waylandWithoutMeans =
            "Wayland session without the RemoteDesktop portal or the wlroots virtual pointer and keyboard, and /dev/uinput is not writable: gesturepad help control"
        static let wlrootsWithoutWayland =
            "--control wlroots needs a Wayland session but WAYLAND_DISPLAY is not set: gesturepad help control"
        static let wlrootsNotOffered =
            "the Wayland compositor does not offer zwlr_virtual_pointer_manager_v1 and zwp_virtual_keyboard_manager_v1 (Sway and other wlroots compositors do; GNOME and KDE: use --control portal): gesturepad help control"
        static let nothingAvailable = "no DISPLAY and /dev/uinput is not writable: gesturepad help control"
    }
}
