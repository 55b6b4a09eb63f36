import ArgumentParser
import FoundationEssentials
import GesturePadConfig
import GesturePadServer
import GesturePadSettings
import GesturePadSystem
import Glibc

/// `gesturepad open`: the desktop page of the server running for this user, in the desktop's
/// browser (`xdg-open`) — the pairing code, the button that opens pairing, the paired phones,
/// the backend (docs/server.md "The desktop page"). The application-menu entry runs it. The
/// address holds the desktop key in its fragment (`#key=`): it goes to the browser on this
/// computer only, and the page sends it back in a header to 127.0.0.1.
struct OpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open GesturePad's desktop page (pairing code, phones, backend) in this computer's browser.",
        discussion: """
            The page is served to this computer only (127.0.0.1) and needs the desktop key kept in \
            the state directory ($XDG_STATE_HOME/gesturepad/desktop-key, made by serve). With \
            --wait, waits that many seconds for a server to start (the menu entry starts the \
            systemd user unit first). Exit status 1 when no server runs.
            """)

    @Flag(name: .customLong("print"), help: "Print the page's address instead of opening a browser.")
    var printOnly = false

    @Option(name: .customLong("wait"), help: "Wait up to this many seconds for a server to start.")
    var waitSeconds: Double = 0

    func run() throws {
        let state = StateDirectory(path: XDGDirectories.state())
        var stderr = StandardError()
        let deadline = MonotonicClock.nowMilliseconds() + max(0, min(waitSeconds, 120)) * 1_000
        var record: ServerRecord? = nil
        while record == nil {
            if case .running(let running) = ServerRecord.status(in: state, isRunning: ProcessProbe.isGesturePad) {
                record = running
            } else if MonotonicClock.nowMilliseconds() >= deadline {
                print(
                    "No GesturePad server is running. Start one: systemctl --user start gesturepad (or gesturepad serve).",
                    to: &stderr)
                throw ExitCode(1)
            } else {
                usleep(100_000)  // a person is waiting for the server to start: poll its record
            }
        }
        guard let record, record.token != .none, let key = KeyFileStore.stored(.desktop, in: state) else {
            print(
                "This server pairs no phones (--no-auth, or it runs from an older version): it has no desktop page.", to: &stderr)
            throw ExitCode(1)
        }
        let scheme = record.secure ? "https" : "http"
        let address = "\(scheme)://127.0.0.1:\(record.port)/desktop.html#key=\(key)"
        if printOnly {
            print(address)
            return
        }
        do {
            _ = try DetachedLaunch.start("xdg-open", arguments: [address])
        } catch {
            print("Could not start xdg-open (\(error)); open this address in a browser: \(address)", to: &stderr)
            throw ExitCode(1)
        }
    }
}
