import ArgumentParser

/// STUB — `gesturepad check-config FILE` (owner: the sinks layer).
struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "check-config", abstract: "Validate a configuration file.")
    @Argument(help: "Configuration file.") var file: String
    func run() throws {}
}
