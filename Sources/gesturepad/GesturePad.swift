import ArgumentParser
import GestureProtocol

/// The `gesturepad` command line: `serve` (the default), `url`, `devices`, `replay`, `check-config`,
/// `help` (topics, and every command's help).
@main
struct GesturePad: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gesturepad",
        abstract: "Use a phone as a remote touchpad: recognize its gestures, show them, run your scripts.",
        version: GesturePadVersion.current,
        subcommands: [
            ServeCommand.self, OpenCommand.self, URLCommand.self, PairCommand.self, DevicesCommand.self,
            ReplayCommand.self,
            CheckConfigCommand.self,
            X11GuardCommand.self,
            HelpCommand.self,
        ],
        defaultSubcommand: ServeCommand.self
    )
}
