import GestureControl
import GestureEngine

/// What a running server takes again from its configuration file when told to reload (SIGHUP,
/// `systemctl --user reload gesturepad`; docs/outputs.md "Reloading the configuration"): the
/// hook rules, for every event from then on; the gesture thresholds and the control mapping
/// settings, for the connections that open from then on. The rest of the file (`server:`,
/// `log:`, `control.backend`) is read at start only.
public struct ReloadedSettings: Sendable, Hashable {
    /// The thresholds of new sessions.
    public var gestures: GestureConfig
    /// The mapping settings of new touchpads; nil leaves them (control is off for good).
    public var control: ControlSettings?
    /// The hook rules (empty: none; `--no-hooks` makes them always empty).
    public var hooks: [HookRule]
    /// The file they were read from (nil: none was found), for the log line.
    public var source: String?
    /// What the file changed that only a restart can apply (`ListenChange`), one warning each.
    public var restartNotes: [String]

    public init(
        gestures: GestureConfig, control: ControlSettings?, hooks: [HookRule], source: String?,
        restartNotes: [String] = []
    ) {
        self.gestures = gestures
        self.control = control
        self.hooks = hooks
        self.source = source
        self.restartNotes = restartNotes
    }
}

/// Why a reload was refused: the file's problems, one line each as `check-config` prints them
/// (`FILE:LINE:COLUMN: error: MESSAGE`). The running configuration stays.
public struct ReloadFailure: Error, Sendable {
    public var lines: [String]

    public init(lines: [String]) {
        self.lines = lines
    }
}

/// Reads the configuration again; called on the server's service thread, once per request.
public typealias SettingsReloader = () -> Result<ReloadedSettings, ReloadFailure>
