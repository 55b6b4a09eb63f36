import ArgumentParser
import FoundationEssentials
import GesturePadConfig
import GesturePadServer

/// What `gesturepad url` and `gesturepad pair` print about the server already running for this
/// user (started by the systemd user unit, say): its address block and QR code, read from
/// `server.json` and the remembered token in the state directory — the start-up banner's lines.
/// Reading it changes nothing; opening pairing is `PairCommand`'s.
struct RunningServerReport {
    let record: ServerRecord
    /// The address block, the trust address with `--tls`, and what the user should know
    /// about the token, in the order they are printed.
    let addressLines: [String]
    let notes: [String]

    /// The report of the running server, or exit status 1 with the reason on standard error
    /// when none runs.
    static func read(qr: Bool) throws -> RunningServerReport {
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
        let (urls, qrLines) = LiveAddresses.current(
            host: record.host, port: record.port, token: token, secure: record.secure, qr: qr)
        var lines = StartupBanner.addressLines(urls: urls, qrLines: qrLines)
        if record.secure, let first = urls.first {
            lines += [
                "", "Over HTTPS: each phone trusts the certificate once at",
                "  \(ServerURLs.trustURL(of: first))",
            ]
        }
        return RunningServerReport(record: record, addressLines: lines, notes: notes)
    }

    /// Whether this server pairs phones with a link at all (not under `--no-auth`).
    var pairsPhones: Bool { record.token != ServerRecord.TokenSource.none }

    /// The whole text: the server line, `pairing` (what the command says of pairing, if
    /// anything), the address block, the notes.
    func text(pairing: String?) -> String {
        var lines = [
            "GesturePad \(record.version) is running (pid \(record.pid), since \(record.started)), port \(record.port)."
        ]
        if let pairing { lines.append(pairing) }
        lines += addressLines
        if !notes.isEmpty { lines += [""] + notes }
        return lines.joined(separator: "\n")
    }
}
