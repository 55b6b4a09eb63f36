import GestureEngine

/// CONTRACT STUB — the user's configuration file (`--config FILE`), as loaded and validated.
/// Every server field is optional: a command-line flag overrides it, a default fills it.
/// Owner: the sinks layer.
public struct ConfigFile: Sendable {
    public var server = ServerSection()
    /// The gesture thresholds: the defaults with the file's `gestures:` overrides applied.
    public var gestures = GestureConfig()
    public var log = LogSection()

    public init() {}

    /// Loads and validates a file; throws an error whose description names line numbers.
    public static func load(path: String) throws -> ConfigFile { ConfigFile() }
}

/// The `server:` section of the configuration file.
public struct ServerSection: Sendable {
    public var host: String? = nil
    public var port: Int? = nil
    public var publicDir: String? = nil
    public var token: String? = nil
    public var auth: Bool? = nil
    public var maxConnections: Int? = nil
    public var maxMessageBytes: Int? = nil
    public var maxMessagesPerSecond: Int? = nil
    public var maxErrorsInARow: Int? = nil
    public var maxPointers: Int? = nil
    public init() {}
}

/// The `log:` section of the configuration file.
public struct LogSection: Sendable {
    public var jsonPath: String? = nil
    public var verbose: Bool? = nil
    public var color: Bool? = nil
    public init() {}
}
