/// The `log:` section of the configuration file: the terminal log, the JSON log and recording.
/// The flags override it (`--log-json`, `--verbose`, `--no-color`, `--quiet`, `--record`).
public struct LogSettings: Sendable, Hashable {
    /// `json:` — the JSON-lines log file.
    public var jsonPath: String? = nil
    /// `verbose:` — also show every gesture event with its phase in the terminal log.
    public var verbose = false
    /// `color:` — `true`, `false`, or `auto` (`nil`: colour only on a terminal).
    public var color: Bool? = nil
    /// `terminal:` — print gesture lines on stdout at all.
    public var terminal = true
    /// `record:` — the folder every touchpad session's input is recorded into (`--record`).
    public var recordDirectory: String? = nil

    public init() {}
}
