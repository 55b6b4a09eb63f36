import Logging

/// The server's end of the release guard: tells the guard process (`gesturepad
/// x11-release-guard`, `X11ReleaseGuard`) what the x11 backend holds, so that a server that
/// dies — SIGKILL, a crash, the OOM killer — leaves nothing pressed. Confined to the backend's
/// thread, like `X11Executor`, which calls it.
///
/// A press is told before it goes to the X server (`willHold`); a release is told once the X
/// server has it (`didLetGo`, then `commit` after the display's flush), so the guard never
/// misses something really held. When the guard is gone (its pipe broke), a new one is started
/// and told everything held; after three such restarts the link gives up with one error line.
final class X11ReleaseGuardLink {
    private var ledger = X11ReleaseLedger()
    private var pendingLetGo: [X11ReleaseLedger.Entry] = []
    private var child: ChildPipe?
    private let start: () throws -> ChildPipe
    private let logger: Logger
    private var restarts = 0
    private static let maximumRestarts = 3

    /// Starts the guard: `executable` (this program) with the `x11-release-guard` command for
    /// `displayName` (nil: the guard reads `DISPLAY` as the backend did).
    init(executable: String, displayName: String?, logger: Logger) throws {
        let arguments = ["x11-release-guard"] + (displayName.map { ["--display", $0] } ?? [])
        start = { try ChildPipe.spawn(executable: executable, arguments: arguments) }
        self.logger = logger
        child = try start()
    }

    /// Tells the guard of a press about to be sent.
    func willHold(_ entry: X11ReleaseLedger.Entry) {
        guard !ledger.entries.contains(entry) else { return }
        ledger.apply(.held(entry))
        send(X11ReleaseLedger.line(for: .held(entry)))
    }

    /// Notes a release sent to the X server; told to the guard by the next `commit`.
    func didLetGo(_ entry: X11ReleaseLedger.Entry) {
        guard ledger.entries.contains(entry), !pendingLetGo.contains(entry) else { return }
        pendingLetGo.append(entry)
    }

    /// Tells the guard of the releases noted since the last commit: call once the X server has
    /// them (after the display's flush).
    func commit() {
        guard !pendingLetGo.isEmpty else { return }
        var text = ""
        for entry in pendingLetGo {
            ledger.apply(.letGo(entry))
            text += X11ReleaseLedger.line(for: .letGo(entry))
        }
        pendingLetGo.removeAll(keepingCapacity: true)
        send(text)
    }

    /// Closes the pipe: the guard releases what it was told is still held (nothing, after the
    /// executor's own release) and exits.
    func close() {
        child?.close()
        child = nil
    }

    private func send(_ text: String) {
        guard let current = child else { return }
        if current.write(text) { return }
        current.close()
        child = nil
        guard restarts < Self.maximumRestarts else {
            logger.error("control: the release guard keeps ending; if the server is killed now, input may stay pressed")
            return
        }
        restarts += 1
        do {
            let fresh = try start()
            let everything = ledger.entries.map { X11ReleaseLedger.line(for: .held($0)) }.joined()
            if fresh.write(everything) {
                child = fresh
                logger.warning("control: the release guard ended; started a new one")
            }
        } catch {
            logger.error(
                "control: cannot restart the release guard (\(error)); if the server is killed now, input may stay pressed")
        }
    }
}
