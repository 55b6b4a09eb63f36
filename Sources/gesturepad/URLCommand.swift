import ArgumentParser
import FoundationEssentials
import GesturePadConfig
import GesturePadServer
import GesturePadSettings

/// `gesturepad url`: the address and QR code of the server already running for this user
/// (started by the systemd user unit, say), from `server.json` and the remembered token in the
/// state directory — the same lines as the start-up banner. Showing the code opens pairing for
/// a few minutes, as the server's start does (`PairCommand.request`).
struct URLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "url",
        abstract: "Print the address and QR code of the running server, and its observer's address.",
        discussion: """
            For a server started elsewhere (systemctl --user start gesturepad): reads server.json \
            and the remembered token in the state directory ($XDG_STATE_HOME/gesturepad, by default \
            ~/.local/state/gesturepad). Showing the code opens pairing for 5 minutes, as the \
            server's start does (gesturepad pair --close closes it). Exit status 1 when no server is \
            running.
            """)

    @Flag(name: .customLong("no-qr"), help: "Do not draw the QR code.")
    var noQR = false

    func run() throws {
        let state = StateDirectory(path: XDGDirectories.state())
        var stderr = StandardError()
        let record: ServerRecord
        switch ServerRecord.status(in: state, isRunning: ProcessProbe.isGesturePad) {
        case .none:
            print(
                "No GesturePad server is running (no \(state.file(ServerRecord.fileName))). "
                    + "Start one: gesturepad serve, or systemctl --user start gesturepad.", to: &stderr)
            throw ExitCode(1)
        case .stale(let gone):
            print(
                "No GesturePad server is running: the one recorded in \(state.file(ServerRecord.fileName)) "
                    + "(pid \(gone.pid), started \(gone.started)) has stopped without cleaning up. "
                    + "See journalctl --user -u gesturepad, or start it again.", to: &stderr)
            throw ExitCode(1)
        case .running(let running):
            record = running
        }
        var notes: [String] = []
        let token: String?
        switch record.token {
        case .remembered:
            token = TokenStore.stored(in: state)
            if token == nil { notes.append("The remembered token is missing from \(state.path): restart the server.") }
        case .given:
            token = nil
            notes.append(
                "This server was given its token (--token, --token-file, GESTUREPAD_TOKEN or the configuration file), which is "
                    + "never stored: add #token=TOKEN to the address yourself.")
        case .none:
            token = nil
            notes.append("WARNING: authentication is off (--no-auth): anyone who can reach this port can send gestures.")
        }
        let (urls, qr) = LiveAddresses.current(
            host: record.host, port: record.port, token: token, secure: record.secure, qr: !noQR)
        var lines = ["GesturePad \(record.version) is running (pid \(record.pid), since \(record.started)), port \(record.port)."]
        // Showing the code opens pairing (docs/server.md "Pairing is a moment").
        if record.token != ServerRecord.TokenSource.none, try PairCommand.request(open: true) == true {
            let minutes = Int((PairingSettings.defaultWindowSeconds / 60).rounded())
            lines.append("Pairing is open for \(minutes) minutes: scan the code with the new phone.")
        }
        lines += StartupBanner.addressLines(urls: urls, qrLines: qr)
        if record.secure, let first = urls.first {
            lines += [
                "", "Over HTTPS: each phone trusts the certificate once at",
                "  \(ServerURLs.trustURL(of: first))",
            ]
        }
        if !notes.isEmpty { lines += [""] + notes }
        print(lines.joined(separator: "\n"))
    }
}
