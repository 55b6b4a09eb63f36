import ArgumentParser
import GestureProtocol
import GesturePadSinks
import Logging

/// CONTRACT STUB — the output flags of `serve` (owner: the sinks layer): configuration file,
/// verbosity, JSON log. `serve` includes them with `@OptionGroup`.
struct OutputOptions: ParsableArguments {
    @Option(name: .long, help: "Configuration file (YAML): server options, gesture thresholds, hooks.")
    var config: String?

    /// Loads `--config` (or an empty configuration).
    func loadConfigFile() throws -> ConfigFile {
        guard let config else { return ConfigFile() }
        return try ConfigFile.load(path: config)
    }

    /// Builds the sinks (terminal log, JSON log, hooks) for a loaded configuration.
    func makeSinks(config: ConfigFile, logger: Logger) throws -> [any GestureSink] { [] }
}
