import GestureControl
import GesturePadSettings

/// The output flags of `serve` (`--log-json`, `--verbose`, `--no-color`, `--quiet`,
/// `--no-hooks`, `--record`): each unset (nil, false) when not given.
public struct OutputFlags: Sendable, Hashable {
    public var jsonPath: String?
    public var verbose: Bool
    public var noColor: Bool
    public var quiet: Bool
    public var noHooks: Bool
    public var recordDirectory: String?

    public init(
        jsonPath: String? = nil, verbose: Bool = false, noColor: Bool = false, quiet: Bool = false,
        noHooks: Bool = false, recordDirectory: String? = nil
    ) {
        self.jsonPath = jsonPath
        self.verbose = verbose
        self.noColor = noColor
        self.quiet = quiet
        self.noHooks = noHooks
        self.recordDirectory = recordDirectory
    }
}

/// The pairing flags of `serve` (`--confirm-pairing`, `--pairing-timeout`, `--notify`).
public struct PairingFlags: Sendable, Hashable {
    public var confirm: Bool
    public var timeoutSeconds: Double?
    public var notify: PairingSettings.Notify?

    public init(confirm: Bool = false, timeoutSeconds: Double? = nil, notify: PairingSettings.Notify? = nil) {
        self.confirm = confirm
        self.timeoutSeconds = timeoutSeconds
        self.notify = notify
    }
}

/// The flags over the file, section by section: the one place a command-line flag overrides
/// the configuration file (the server's are `ServeSettings.resolve`). A path the file gives
/// resolves against its folder; a flag's is the caller's (the working directory).
extension ConfigFile {
    /// `--control`, else `control.backend`, else `auto`.
    public func controlMode(flag: ControlMode?) -> ControlMode {
        flag ?? controlBackend ?? .auto
    }

    /// `--keyboard-layout` over `control.keyboardLayout`; nil: the desktop's, else US.
    public func keyboardLayout(flag: String?) -> String? {
        flag ?? controlKeyboardLayout
    }

    /// `control:` with `--speed`, `--acceleration` and `--no-natural-scroll` (as an update)
    /// over it, for a backend whose own defaults are `backendAcceleration` and
    /// `backendKineticScrolling`: the acceleration is the flag's, else the file's, else the
    /// backend's; kinetic scrolling the file's, else the backend's. The gestures claimed are
    /// those of `hooks` (the rules in force: none with `--no-hooks`).
    public func controlSettings(
        flags: SettingsUpdate, backendAcceleration: AccelerationProfile, backendKineticScrolling: Bool,
        hooks: [HookRule] = []
    ) -> ControlSettings {
        var settings = control
        settings.acceleration = controlAcceleration ?? backendAcceleration
        settings.kineticScrolling = controlKineticScrolling ?? backendKineticScrolling
        settings.claims = HookRule.claims(of: hooks)
        return flags.applied(to: settings)
    }

    /// `server.pairing:` with the flags over it.
    public func pairingSettings(flags: PairingFlags) -> PairingSettings {
        var settings = pairing
        if flags.confirm { settings.confirm = true }
        if let timeout = flags.timeoutSeconds { settings.timeoutSeconds = timeout }
        if let notify = flags.notify { settings.notify = notify }
        return settings
    }

    /// `log:` with the flags over it: `--no-color` makes `color` false, `--quiet` turns the
    /// terminal log off, `--verbose` turns verbosity on.
    public func logSettings(flags: OutputFlags) -> LogSettings {
        var settings = log
        settings.jsonPath = flags.jsonPath ?? log.jsonPath.map(resolve)
        settings.verbose = flags.verbose || log.verbose
        if flags.noColor { settings.color = false }
        settings.terminal = !flags.quiet && log.terminal
        settings.recordDirectory = flags.recordDirectory ?? log.recordDirectory.map(resolve)
        return settings
    }

    /// The hook rules, none with `--no-hooks`.
    public func hookRules(flags: OutputFlags) -> [HookRule] {
        flags.noHooks ? [] : hooks
    }

    /// `--public`, else `server.public`; nil: the installed page.
    public func publicDirectory(flag: String?) -> String? {
        flag ?? server.publicDirectory.map(resolve)
    }
}
