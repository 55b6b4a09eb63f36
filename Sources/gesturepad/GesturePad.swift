import ArgumentParser

/// The `gesturepad` command line: `serve` (the default), `replay`, `check-config`.
@main
struct GesturePad: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gesturepad",
        abstract: "Use a phone as a remote touchpad: recognize its gestures, show them, run your scripts.",
        subcommands: [ServeCommand.self, ReplayCommand.self, CheckConfigCommand.self],
        defaultSubcommand: ServeCommand.self
    )
}
