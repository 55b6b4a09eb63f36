import ArgumentParser
import Foundation
import GesturePadConfig
import GesturePadSinks
import GestureProtocol
import Logging

/// The output flags of `serve`: configuration file, verbosity,
/// colour, JSON log. `serve` includes them with `@OptionGroup`. Flags override the file.
struct OutputOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            """
            Configuration file (YAML): server options, gesture thresholds, log options, hooks. \
            (default: $XDG_CONFIG_HOME/gesturepad/config.yaml, i.e. ~/.config/gesturepad/config.yaml, \
            else /etc/gesturepad/config.yaml, when one exists)
            """, valueName: "FILE"))
    var config: String?

    @Flag(name: .customLong("no-config"), help: "Read no configuration file, not even the default ones.")
    var noConfig = false

    @Flag(name: .long, help: "Also show every gesture event with its phase in the terminal log (`changed` ones too).")
    var verbose = false

    @Option(
        name: .customLong("log-json"),
        help: ArgumentHelp("Append every gesture event as one JSON line to FILE (reopened on SIGHUP).", valueName: "FILE"))
    var logJSON: String?

    @Flag(
        name: .customLong("no-color"),
        help: "Never colour the terminal log (default: colour only on a terminal, unless NO_COLOR is set).")
    var noColor = false

    @Flag(name: .long, help: "Do not print gesture lines on stdout.")
    var quiet = false

    @Flag(name: .customLong("no-hooks"), help: "Ignore the configuration file's hooks.")
    var noHooks = false

    func validate() throws {
        if noConfig && config != nil { throw ValidationError("--config and --no-config do not go together") }
    }

    /// The configuration file to read: `--config`, else the user's, else the system's (nil:
    /// none, or `--no-config`).
    func configLocation(environment: [String: String] = ProcessInfo.processInfo.environment) -> ConfigLocation? {
        guard !noConfig else { return nil }
        return ConfigLocation.find(explicit: config, environment: environment) { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }

    /// Loads the file at `location` (or an empty configuration). A bad file is not a usage
    /// mistake: its problems are printed as `check-config` prints them, exit status 1.
    func loadConfigFile(at location: ConfigLocation?) throws -> ConfigFile {
        guard let location else { return ConfigFile() }
        do {
            return try ConfigFile.load(path: location.path)
        } catch let error as ConfigError {
            throw error.report()
        }
    }

    /// Builds the sinks (terminal log, JSON log, hooks) for a loaded configuration; the flags
    /// override the file's `log:` section.
    func makeSinks(config: ConfigFile, logger: Logger) throws -> [any GestureSink] {
        var sinks: [any GestureSink] = []
        if !quiet, config.log.terminal {
            let verbose = self.verbose || config.log.verbose
            sinks.append(TerminalLogSink(verbose: verbose, color: useColor(config.log.color), logger: logger))
        }
        if let path = logJSON ?? config.log.jsonPath.map(config.resolve) {
            do {
                sinks.append(try JSONLogSink(path: path, logger: logger))
            } catch {
                throw ServeCommand.Failure("--log-json: \(error)")
            }
        }
        if !noHooks, !config.hooks.isEmpty {
            sinks.append(HookSink(rules: config.hooks, logger: logger))
        }
        return sinks
    }

    /// `--no-color` wins; then the file's `color:`; otherwise colour when stdout is a terminal
    /// and `NO_COLOR` is not set (no-color.org).
    private func useColor(_ fromFile: Bool?) -> Bool {
        if noColor { return false }
        if let fromFile { return fromFile }
        if ProcessInfo.processInfo.environment["NO_COLOR"].map({ !$0.isEmpty }) ?? false { return false }
        return isatty(1) == 1
    }
}
