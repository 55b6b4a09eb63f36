import FoundationEssentials

/// `last-address.json` in the state directory: the port the last `serve` listened on. Unlike
/// `server.json` it stays after the server stops, so the next start can tell whether paired
/// phones — which keep the address they opened — still find it (docs/server.md "What you see
/// at start").
public struct LastAddress: Codable, Sendable, Hashable {
    public static let fileName = "last-address.json"

    /// The port it listened on (the bound one, also for `--port 0`).
    public var port: Int

    public init(port: Int) {
        self.port = port
    }

    /// The record in `directory`, if there is a readable one.
    public static func read(from directory: StateDirectory) -> LastAddress? {
        directory.read(fileName).flatMap { try? JSONDecoder().decode(LastAddress.self, from: $0) }
    }

    /// Writes it into `directory` (0600, atomically).
    public func write(to directory: StateDirectory) throws(StateError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = ((try? encoder.encode(self)) ?? Data("{}".utf8)) + Data("\n".utf8)
        try directory.write(Self.fileName, data, durable: false)
    }

    /// A server of this user started on `port` with `pairedDevices` phones paired: the banner's
    /// line if the port moved (`movedLine`), and the port recorded for the next start (the error
    /// if it could not be).
    public static func started(
        on port: Int, in directory: StateDirectory, pairedDevices: Int
    ) -> (moved: String?, unwritten: StateError?) {
        let moved = movedLine(previous: read(from: directory), port: port, pairedDevices: pairedDevices)
        do {
            try LastAddress(port: port).write(to: directory)
            return (moved, nil)
        } catch {
            return (moved, error)
        }
    }

    /// The banner's line when the server listens on `port` while the last run listened
    /// elsewhere and phones are paired: a phone keeps the address it opened (its key is kept
    /// by its browser for that address alone), so each must be given the new one. Nil when
    /// nothing changed, nothing is known of an earlier run, or no phone is paired.
    public static func movedLine(previous: LastAddress?, port: Int, pairedDevices: Int) -> String? {
        guard let previous, previous.port != port, pairedDevices > 0 else { return nil }
        let phones =
            pairedDevices == 1 ? "The paired phone still opens" : "The \(pairedDevices) paired phones still open"
        return "The port changed: the last run listened on port \(previous.port), this one on \(port). "
            + "\(phones) the old address and will not find this server: point each at the new "
            + "address (open the link above or scan the code; at a new address a phone pairs again, and "
            + "gesturepad devices forget NAME removes its old entry)."
    }
}
