import ArgumentParser
import FoundationEssentials
import GesturePadServer
import GesturePadSettings
import Glibc

/// `gesturepad pair`: opens pairing on the running server for a few minutes and shows the code
/// (the address block `gesturepad url` prints), or closes it at once with `--close`
/// (docs/server.md "Pairing is a moment"). The request goes through `devices.json` and SIGUSR1, as `gesturepad devices`.
struct PairCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pair",
        abstract: "Open pairing for a new phone for a few minutes, and show the code (--close closes it).",
        discussion: """
            A running server pairs a new phone with its link (#token=…) only in the minutes after the \
            code is shown: as it starts, and after gesturepad pair (5 minutes; with --confirm-pairing, \
            whenever you accept it). After that the link pairs nobody; paired phones connect as always. \
            --new-token makes the old link worthless for good.
            """)

    @Flag(name: .customLong("close"), help: "Close pairing now: the link pairs nobody until gesturepad pair.")
    var close = false

    @Flag(name: .customLong("no-qr"), help: "Do not draw the QR code.")
    var noQR = false

    func run() throws {
        guard DeviceRoster().runningServer != nil else {
            throw CommandFailure.noServer(
                "no server that pairs phones is running here (gesturepad serve opens pairing as it starts)")
        }
        guard close else { return try open() }
        guard try Self.request(open: false) == true else {
            throw CommandFailure.noServer("the running server could not be told")
        }
        print("Pairing is closed: the link pairs no new phone until gesturepad pair.")
    }

    /// The minutes an opening lasts (`PairingSettings.defaultWindowSeconds`).
    static var windowMinutes: Int { Int((PairingSettings.defaultWindowSeconds / 60).rounded()) }

    private func open() throws {
        let report = try RunningServerReport.read(qr: !noQR)
        guard report.pairsPhones else {
            throw CommandFailure.noServer(
                "the running server takes no pairing (--no-auth): anyone who can reach it connects")
        }
        guard try Self.request(open: true) == true else {
            throw CommandFailure.noServer("the running server could not be told")
        }
        print(report.text(pairing: "Pairing is open for \(Self.windowMinutes) minutes: scan the code with the new phone."))
    }

    /// Asks the running server that pairs phones to open (or close) pairing: nil when there is
    /// none, else whether it was told (SIGUSR1).
    static func request(open: Bool) throws -> Bool? {
        let roster = DeviceRoster()
        guard let server = roster.runningServer else { return nil }
        try roster.store.update { list in list.pairingRequest = .next(after: list.pairingRequest, open: open) }
        guard kill(server.pid, SIGUSR1) == 0 else { return false }
        // Returns once the server has taken the request in (its devicesReloads grew).
        if let before = server.devicesReloads { _ = roster.waitForReload(of: server.pid, after: before) }
        return true
    }
}
