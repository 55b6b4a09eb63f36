import ArgumentParser
import FoundationEssentials
import GesturePadConfig
import GesturePadSettings
import GesturePadSinks
import GestureProtocol
import Glibc
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

    @Flag(
        name: .long,
        help:
            "Also show every gesture event with its phase in the terminal log (`changed` ones too), and the server's info lines (connections opened and closed) on stderr."
    )
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
            var isDirectory = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory
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

    /// These flags and `--record`, for `ConfigFile.logSettings` to put over the file's.
    func flags(recordDirectory: String?) -> OutputFlags {
        OutputFlags(
            jsonPath: logJSON, verbose: verbose, noColor: noColor, quiet: quiet, noHooks: noHooks,
            recordDirectory: recordDirectory)
    }

    /// The least level of the server's diagnostics on stderr: the activity lines on stdout say
    /// what happens, so the routine info lines (connections opened and closed, sessions) come
    /// only with `--verbose` (`log.verbose`); notices, warnings and errors always.
    static func diagnosticsLevel(verbose: Bool) -> Logger.Level {
        verbose ? .info : .notice
    }

    /// Builds the sinks (terminal log, JSON log, hooks) for the merged `log` settings and
    /// `hooks`: the hook sink is there even without rules, for a reload to give it some, unless
    /// `hooks` is nil (`--no-hooks`).
    static func makeSinks(log: LogSettings, hooks: [HookRule]?, logger: Logger) throws -> [any GestureSink] {
        var sinks: [any GestureSink] = []
        if log.terminal {
            sinks.append(TerminalLogSink(verbose: log.verbose, color: useColor(log.color), logger: logger))
        }
        if let path = log.jsonPath {
            do {
                sinks.append(try JSONLogSink(path: path, logger: logger))
            } catch {
                throw CommandFailure.option("--log-json", "\(error)")
            }
        }
        if let hooks {
            sinks.append(HookSink(rules: hooks, logger: logger))
        }
        return sinks
    }

    /// `color:` after `--no-color` (false) and the file; otherwise colour when stdout is a
    /// terminal and `NO_COLOR` is not set (no-color.org).
    private static func useColor(_ color: Bool?) -> Bool {
        if let color { return color }
        if ProcessInfo.processInfo.environment["NO_COLOR"].map({ !$0.isEmpty }) ?? false { return false }
        return isatty(1) == 1
    }
}
