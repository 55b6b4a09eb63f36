/// Whether the desktop portal on the session bus offers RemoteDesktop, and which version:
/// the `portalOffersRemoteDesktop` fact of `--control auto`, and the first thing the portal
/// backend reads. GNOME and KDE offer it; wlroots compositors (Sway) do not.
public enum PortalProbe {
    /// What the portal reports.
    public struct Info: Sendable, Hashable {
        /// `RemoteDesktop.version`: 2 and later can keep the permission (restore tokens).
        public var version: UInt32
        /// `AvailableDeviceTypes`: 1 keyboard, 2 pointer, 4 touchscreen.
        public var deviceTypes: UInt32
    }

    /// How long the probe waits for the bus (and the portal, which D-Bus may have to start).
    public static let defaultTimeout = 2.0

    /// Whether the portal offers RemoteDesktop with a pointer, and if not, why.
    public static func probe(timeout: Double = defaultTimeout) -> Result<Void, ControlBackendError> {
        do {
            _ = try check(timeout: timeout)
            return .success(())
        } catch let error as ControlBackendError {
            return .failure(error)
        } catch {
            return .failure(ControlBackendError.portal("\(error)"))
        }
    }

    /// The portal's RemoteDesktop facts, on a connection of its own; throws a one-line reason.
    public static func check(timeout: Double = defaultTimeout) throws -> Info {
        let bus = try SDBusConnection.openSessionBus()
        defer { bus.close() }
        bus.setCallTimeout(seconds: timeout)
        return try read(on: bus)
    }

    /// Reads `version` and `AvailableDeviceTypes` on `bus`.
    static func read(on bus: SDBusConnection) throws -> Info {
        let version: UInt32
        let devices: UInt32
        do {
            version = try bus.call(PortalBus.property("version")).first?.uint32 ?? 0
            devices = try bus.call(PortalBus.property("AvailableDeviceTypes")).first?.uint32 ?? 0
        } catch let error as ControlBackendError {
            throw ControlBackendError.portal(
                "the desktop portal does not offer RemoteDesktop on the session bus (\(error.message))")
        }
        guard version >= 1 else { throw ControlBackendError.portal("the desktop portal reports no RemoteDesktop version") }
        guard devices & PortalBus.pointer != 0 else {
            throw ControlBackendError.portal(
                "the desktop portal's RemoteDesktop offers no pointer (AvailableDeviceTypes \(devices))")
        }
        return Info(version: version, deviceTypes: devices)
    }
}
