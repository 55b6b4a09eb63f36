import FoundationEssentials
import GestureControl
import GestureEngine
import GesturePadSettings
import GesturePadSystem

/// The user's configuration file (`--config FILE`, YAML), decoded straight into the settings
/// types the layers take: `ServeSettings` (every field optional: a command-line flag
/// overrides it, a default fills it) and `PairingSettings` and the sinks' `HookRule`s (from
/// GesturePadSettings), the engine's `GestureConfig`, the control layer's `ControlSettings`,
/// and the log options. What each key is, and its default, is in `ConfigKeys`
/// (docs/outputs.md); how the flags go over it, in `ConfigFile+Flags`.
public struct ConfigFile: Sendable {
    /// The `server:` section.
    public var server = ServeSettings()
    /// `server.pairing:` — how new phones pair (`--confirm-pairing`, `--pairing-timeout` and
    /// `--notify` override it).
    public var pairing = PairingSettings()
    /// The gesture thresholds: the defaults with the file's `gestures:` overrides applied.
    public var gestures = GestureConfig()
    /// The `log:` section.
    public var log = LogSettings()
    /// The `hooks:` rules, in file order.
    public var hooks: [HookRule] = []
    /// `control.backend` — auto, x11, uinput, touchpad, portal, wlroots or off (`--control` overrides it).
    public var controlBackend: ControlMode? = nil
    /// `control.acceleration` (`--acceleration` overrides it); unset: the backend's own
    /// default, `adaptive` where nothing else accelerates (x11, portal), `flat` where the
    /// desktop's input stack does (uinput, touchpad).
    public var controlAcceleration: AccelerationProfile? = nil
    /// `control.kineticScrolling`; unset: the backend's own default, on where the desktop
    /// cannot coast a wheel (x11, uinput), off where it coasts itself (portal, touchpad).
    public var controlKineticScrolling: Bool? = nil
    /// `control.keyboardLayout` (`--keyboard-layout` overrides it): the XKB layout the desktop
    /// reads the `uinput` and `touchpad` backends' key codes through; unset: the desktop's (asked
    /// at start), else US.
    public var controlKeyboardLayout: String? = nil
    /// The rest of `control:`: the mapping defaults with the file's values applied
    /// (`--speed` and `--no-natural-scroll` override them).
    public var control = ControlSettings()
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
                issues: [ConfigIssue(line: 0, column: 0, message: "cannot read the file (\(SystemCall.describe(error)))")])
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
