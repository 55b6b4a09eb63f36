import GesturePadServer
import Logging
import Synchronization

/// Keeps `server.json` current while `serve` runs: written once the server listens, and again
/// whenever the set of connected paired devices changes (what `gesturepad devices` shows).
final class ServerRecordKeeper: Sendable {
    private let state: StateDirectory
    private let logger: Logger
    private let record = Mutex<ServerRecord?>(nil)
    private let connectedIDs = Mutex<[String]>([])

    init(state: StateDirectory, logger: Logger) {
        self.state = state
        self.logger = logger
    }

    /// Writes `record` (with the devices connected so far when it pairs devices).
    func start(_ new: ServerRecord, pairsDevices: Bool) {
        var current = new
        if pairsDevices { current.connectedDevices = connectedIDs.withLock { $0 } }
        record.withLock { $0 = current }
        write(current)
    }

    /// The paired devices connected now changed.
    func connected(_ ids: [String]) {
        connectedIDs.withLock { $0 = ids }
        let updated = record.withLock { stored -> ServerRecord? in
            guard stored?.connectedDevices != nil else { return nil }
            stored?.connectedDevices = ids
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
