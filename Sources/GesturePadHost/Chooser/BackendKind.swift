import GestureControl

/// A backend that drives the computer.
public enum BackendKind: String, Sendable, Hashable, CaseIterable {
    /// The X server named by `DISPLAY`, through XTest (`X11Backend`).
    case x11
    /// A virtual input device through `/dev/uinput` (`UInputBackend`).
    case uinput
    /// The RemoteDesktop portal of a Wayland desktop, over D-Bus (`PortalBackend`).
    case portal

    /// What the backend can type, for the protocol layer to refuse what it cannot.
    public var capabilities: ControlCapabilities {
        switch self {
        case .x11: X11Backend.capabilities
        case .uinput: UInputBackend.capabilities
        case .portal: PortalBackend.capabilities
        }
    }
}
