import ArgumentParser
import FoundationEssentials
import GesturePadHost
import Glibc
import Logging

/// `gesturepad x11-release-guard`: not for users. The x11 backend starts this program so, with
/// its standard input a pipe from the server, to release on the X server whatever the server
/// holds the moment that pipe ends — also when the server is killed or crashes
/// (`X11ReleaseGuard`). It ignores SIGINT, SIGTERM and SIGHUP: Ctrl-C in the terminal or
/// `systemctl --user stop` end the server, whose exit ends the guard.
struct X11GuardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "x11-release-guard",
        abstract: "Release what the server holds on the X server when its pipe ends (started by serve).",
        shouldDisplay: false)

    @Option(help: "The X display (default: DISPLAY).")
    var display: String?

    func run() throws {
        for ignored in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { signal(ignored, SIG_IGN) }
        var logger = Logger(label: "gesturepad.x11-release-guard") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .notice
        let status = X11ReleaseGuard.run(displayName: display, logger: logger)
        if status != 0 { throw ExitCode(status) }
    }
}
