import Foundation
import GestureControl
import GestureEngine

/// The user's configuration file (`--config FILE`, YAML), as loaded and validated.
/// Every server field is optional: a command-line flag overrides it, a default fills it.
/// Owner: the sinks layer. Reference: docs/outputs.md.
public struct ConfigFile: Sendable {
    public var server = ServerSection()
    /// The gesture thresholds: the defaults with the file's `gestures:` overrides applied.
    public var gestures = GestureConfig()
    public var log = LogSection()
    /// The `hooks:` rules, in file order.
    public var hooks: [HookRule] = []
    /// The `control:` section: the backend and the mapping settings over their defaults.
    public var control = ControlSection()
    /// The folder of the file (absolute) when it was loaded from a path. Relative paths in the
    /// file resolve against it, not against the working directory: `server.public`,
    /// `log.json`, `log.record`, and the hooks' programs (which also start in it).
    public private(set) var directory: String? = nil

    public init() {}

    /// `path` (from the file) made absolute against the file's folder; unchanged when it is
    /// absolute or the file has no folder.
    public func resolve(_ path: String) -> String {
        guard !path.hasPrefix("/"), let directory else { return path }
        return (directory.hasSuffix("/") ? directory : directory + "/") + path
    }

    /// Loads and validates a file; throws a `ConfigError` whose description names line numbers.
    /// Relative paths in it are then relative to its folder (`directory`).
    public static func load(path: String) throws -> ConfigFile {
        var config = try loadText(path: path)
        let absolute = URL(fileURLWithPath: path).standardizedFileURL
        config.directory = absolute.deletingLastPathComponent().path
        for index in config.hooks.indices { config.hooks[index].directory = config.directory }
        return config
    }

    private static func loadText(path: String) throws -> ConfigFile {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigError(
                path: path,
                issues: [ConfigIssue(line: 0, column: 0, message: "cannot read the file (\(error.localizedDescription))")])
        }
        return try parse(yaml: text, path: path)
    }

    /// Parses and validates YAML text; `path` only names the file in errors.
    public static func parse(yaml: String, path: String = "<config>") throws(ConfigError) -> ConfigFile {
        var reader = ConfigReader()
        let config = reader.read(yaml: yaml)
        guard reader.issues.isEmpty else {
            throw ConfigError(path: path, issues: reader.issues.sorted { ($0.line, $0.column) < ($1.line, $1.column) })
        }
        return config
    }
}

/// The `server:` section of the configuration file.
public struct ServerSection: Sendable {
    public var host: String? = nil
    public var port: Int? = nil
    /// `public:` — the directory the page is served from.
    public var publicDir: String? = nil
    public var token: String? = nil
    public var auth: Bool? = nil
    /// `limits:` sub-section.
    public var maxConnections: Int? = nil
    public var maxMessageBytes: Int? = nil
    public var maxMessagesPerSecond: Int? = nil
    public var maxErrorsInARow: Int? = nil
    public var maxPointers: Int? = nil
    public init() {}
}

/// The `control:` section of the configuration file (docs/control.md).
public struct ControlSection: Sendable {
    /// `backend:` — auto, x11, uinput, portal or off (`--control` overrides it).
    public var backend: ControlMode? = nil
    /// The defaults with the file's values applied (`--speed`, `--acceleration` and
    /// `--no-natural-scroll` override them).
    public var settings = ControlSettings()
    public init() {}
}

/// The `log:` section of the configuration file.
public struct LogSection: Sendable {
    /// `json:` — the JSON-lines log file.
    public var jsonPath: String? = nil
    /// `verbose:` — also show `changed` events in the terminal log.
    public var verbose: Bool? = nil
    /// `color:` — `true`, `false`, or `auto` (`nil`: colour only on a terminal).
    public var color: Bool? = nil
    /// `terminal:` — print gesture lines on stdout at all (default true). (Extension.)
    public var terminal: Bool? = nil
    /// `record:` — the folder every touchpad session's input is recorded into (`--record`).
    public var recordDirectory: String? = nil
    public init() {}
}

/// One problem found in a configuration file.
public struct ConfigIssue: Sendable, Hashable, CustomStringConvertible {
    /// 1-based line; 0 when the problem has no place (e.g. unreadable file).
    public var line: Int
    public var column: Int
    public var message: String

    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { line > 0 ? "line \(line): \(message)" : message }
}

/// A configuration file that failed validation: every problem found, with line numbers.
public struct ConfigError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var issues: [ConfigIssue]

    public init(path: String, issues: [ConfigIssue]) {
        self.path = path
        self.issues = issues
    }

    /// One `FILE:LINE:COLUMN: error: message` line per problem (the compiler's format, so
    /// editors can jump to it).
    public var description: String {
        issues.map { issue in
            issue.line > 0
                ? "\(path):\(issue.line):\(issue.column): error: \(issue.message)"
                : "\(path): error: \(issue.message)"
        }.joined(separator: "\n")
    }
}
