import GestureControl

/// The facts about the session that decide which backend can drive the computer: the input of
/// `BackendChooser`, gathered once at start-up by `ControlEnvironment.current`.
public struct ControlEnvironment: Sendable, Hashable {
    /// `DISPLAY` is set (and not empty): an X session, or XWayland inside a Wayland one.
    public var hasDisplay: Bool
    /// `WAYLAND_DISPLAY` is set (and not empty): a Wayland session.
    public var hasWaylandDisplay: Bool
    /// This user may write `/dev/uinput` (`UInputAccess.isWritable`).
    public var uinputWritable: Bool
    /// The desktop portal on the session bus offers RemoteDesktop with a pointer
    /// (`PortalProbe`).
    public var portalOffersRemoteDesktop: Bool
    /// Why it does not, when it was asked (`PortalProbe`'s error: no session bus, no portal,
    /// no pointer …): the chooser's failure says it, so nothing asks the portal twice.
    public var portalAbsence: ControlBackendError?
    /// The Wayland compositor offers a virtual pointer and a virtual keyboard
    /// (`zwlr_virtual_pointer_manager_v1`, `zwp_virtual_keyboard_manager_v1`: wlroots).
    public var compositorOffersVirtualInput: Bool

    public init(
        hasDisplay: Bool, hasWaylandDisplay: Bool, uinputWritable: Bool, portalOffersRemoteDesktop: Bool = false,
        portalAbsence: ControlBackendError? = nil, compositorOffersVirtualInput: Bool = false
    ) {
        self.hasDisplay = hasDisplay
        self.hasWaylandDisplay = hasWaylandDisplay
        self.uinputWritable = uinputWritable
        self.portalOffersRemoteDesktop = portalOffersRemoteDesktop
        self.portalAbsence = portalAbsence
        self.compositorOffersVirtualInput = compositorOffersVirtualInput
    }

    /// Reads the facts from `environment` (the process environment) and the file system. The
    /// portal is asked (`portalProbe`, a D-Bus round trip of up to `PortalProbe.defaultTimeout`)
    /// only when the answer can change the choice: for `--control portal`, and for `auto` in a
    /// Wayland session without a writable `/dev/uinput`. The compositor is asked for its globals
    /// (`compositorProbe`, a Wayland round trip) for `--control wlroots`, and for `auto` there
    /// when the portal did not answer.
    public static func current(
        environment: [String: String], uinputPath: String = UInputAccess.defaultPath, for mode: ControlMode = .auto,
        portalProbe: () -> Result<Void, ControlBackendError> = { PortalProbe.probe() },
        compositorProbe: () -> Bool = { WlrootsBackend.compositorOffersVirtualInput() }
    ) -> ControlEnvironment {
        let wayland = !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
        let uinputWritable = UInputAccess.isWritable(path: uinputPath)
        let askPortal = mode == .portal || (mode == .auto && wayland && !uinputWritable)
        var absence: ControlBackendError?
        var portal = false
        if askPortal {
            switch portalProbe() {
            case .success: portal = true
            case .failure(let error): absence = error
            }
        }
        let askCompositor = wayland && (mode == .wlroots || (mode == .auto && !uinputWritable && !portal))
        return ControlEnvironment(
            hasDisplay: !(environment["DISPLAY"] ?? "").isEmpty,
            hasWaylandDisplay: wayland,
            uinputWritable: uinputWritable,
            portalOffersRemoteDesktop: portal,
            portalAbsence: absence,
            compositorOffersVirtualInput: askCompositor && compositorProbe()
        )
    }
}
