import Logging

/// The release guard for the `x11` backend: a small process (`gesturepad x11-release-guard`,
/// started by the backend through `X11ReleaseGuardLink`) with an X connection of its own, that
/// reads what the server holds from its standard input and, the moment that input ends — the
/// server stopped, crashed or was killed, since the kernel closes a dead process's pipe — lets
/// go of it: buttons and keys released, spare keycodes unbound.
///
/// Needed because the X server keeps an XTest client's presses after the client dies: a
/// server killed mid-drag would leave button 1 down, one killed mid-pinch Control held.
public enum X11ReleaseGuard {
    /// Runs the guard until its input ends; the exit status (1: the display could not be
    /// opened, said through `logger`).
    public static func run(displayName: String?, input: Int32 = 0, logger: Logger) -> Int32 {
        let display: X11Display
        do {
            display = try X11Display.open(name: displayName)
        } catch {
            logger.error("x11-release-guard: \("\(error)")")
            return 1
        }
        var ledger = X11ReleaseLedger()
        var partial = ""
        var watch = PipeWatch(input: input, other: display.connectionNumber)
        watching: while true {
            switch watch.next() {
            case .text(let text):
                partial = String(ledger.apply(lines: Substring(partial + text)))
            case .other:
                // MappingNotify reaches every client: read them so they do not pile up.
                _ = display.takeKeyboardMappingChanged()
                if display.isConnectionLost { break watching }  // the X server is gone
            case .endOfInput:
                break watching
            }
        }
        letGo(of: ledger, on: display)
        display.close()
        return 0
    }

    /// Releases every entry in the order of every backend (`HeldButtons`): the buttons, then
    /// the keys, each newest first — a key before the binding that made it typable — and
    /// waits until the X server has handled it.
    static func letGo(of ledger: X11ReleaseLedger, on display: X11Display) {
        for entry in ledger.entries.reversed() {
            if case .button(let number) = entry { display.fakeButton(number, down: false) }
        }
        for entry in ledger.entries.reversed() {
            switch entry {
            case .button: continue
            case .key(let keycode): display.fakeKey(keycode, down: false)
            case .binding(let keycode): display.bind(keycode, to: X11Keysyms.none)
            }
        }
        display.sync()
    }
}
