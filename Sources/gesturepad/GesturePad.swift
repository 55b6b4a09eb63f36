import ArgumentParser

/// The `gesturepad` command line.
@main
struct GesturePad: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gesturepad",
        abstract: "Phone-as-touchpad gesture server.",
        subcommands: []
    )
}
