import ArgumentParser

/// STUB — `gesturepad replay FILE` (owner: the protocol layer).
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "replay", abstract: "Replay a trace through the engine.")
    @Argument(help: "Trace file, or - for standard input.") var file: String
    func run() throws {}
}
