/// The facts about the session that decide which backend can drive the computer: the input of
/// `BackendChooser`, gathered once at start-up by `ControlEnvironment.current`.
public struct ControlEnvironment: Sendable, Hashable {
    /// `DISPLAY` is set (and not empty): an X session, or XWayland inside a Wayland one.
    public var hasDisplay: Bool
    /// `WAYLAND_DISPLAY` is set (and not empty): a Wayland session.
    public var hasWaylandDisplay: Bool
    /// This user may write `/dev/uinput` (`UInputAccess.isWritable`).
    public var uinputWritable: Bool
    /// The desktop portal offers RemoteDesktop. Always false until the portal backend exists.
    public var portalOffersRemoteDesktop: Bool

    public init(
        hasDisplay: Bool, hasWaylandDisplay: Bool, uinputWritable: Bool, portalOffersRemoteDesktop: Bool = false
    ) {
        self.hasDisplay = hasDisplay
        self.hasWaylandDisplay = hasWaylandDisplay
        self.uinputWritable = uinputWritable
        self.portalOffersRemoteDesktop = portalOffersRemoteDesktop
    }

    /// Reads the facts from `environment` (the process environment) and the file system.
    /// The portal is not asked: its backend is not built yet.
    public static func current(
        environment: [String: String], uinputPath: String = UInputAccess.defaultPath
    ) -> ControlEnvironment {
        ControlEnvironment(
            hasDisplay: !(environment["DISPLAY"] ?? "").isEmpty,
            hasWaylandDisplay: !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty,
            uinputWritable: UInputAccess.isWritable(path: uinputPath),
            portalOffersRemoteDesktop: false
        )
    }
}
