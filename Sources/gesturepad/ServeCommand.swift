import ArgumentParser

/// STUB — `gesturepad serve` (owner: the server layer).
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Serve the page and the gesture WebSocket.")
    @OptionGroup var output: OutputOptions
    func run() throws {}
}
