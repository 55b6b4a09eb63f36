import GesturePadServer
import Logging
import Synchronization

/// Keeps `server.json` current while `serve` runs: written once the server listens, and again
/// whenever the set of connected paired devices changes (what `gesturepad devices` shows).
final class ServerRecordKeeper: Sendable {
    private let state: StateDirectory
    private let logger: Logger
    private let record = Mutex<ServerRecord?>(nil)
    private let presence = Mutex(DevicePresence(connected: [], reloads: 0))

    init(state: StateDirectory, logger: Logger) {
        self.state = state
        self.logger = logger
    }

    /// Writes `record` (with the devices connected so far when it pairs devices).
    func start(_ new: ServerRecord, pairsDevices: Bool) {
        var current = new
        if pairsDevices {
            let now = presence.withLock { $0 }
            current.connectedDevices = now.connected
            current.devicesReloads = now.reloads
        }
        record.withLock { $0 = current }
        write(current)
    }

    /// The paired devices connected now, or the reloads taken in, changed.
    func update(_ new: DevicePresence) {
        presence.withLock { $0 = new }
        let updated = record.withLock { stored -> ServerRecord? in
            guard stored?.connectedDevices != nil else { return nil }
            stored?.connectedDevices = new.connected
            stored?.devicesReloads = new.reloads
            return stored
        }
        if let updated { write(updated) }
    }

    private func write(_ current: ServerRecord) {
        do {
            try current.write(to: state)
        } catch {
            logger.warning("gesturepad url and gesturepad devices will not find this server", metadata: ["error": "\(error)"])
        }
    }
}
