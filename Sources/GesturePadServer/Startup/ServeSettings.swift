import GestureEngine
import GestureProtocol

/// The server settings one source gives (command-line flags, or the configuration file's
/// `server:` section, which `GesturePadConfig` decodes straight into this type); `nil` means
/// "not given here".
public struct ServeSettings: Sendable, Hashable {
    public var host: String?
    public var port: Int?
    public var publicDirectory: String?
    public var token: String?
    /// `false` turns authentication off (`--no-auth`, or `auth: false` in the file).
    public var auth: Bool?
    public var maxConnections: Int?
    public var maxMessageBytes: Int?
    public var maxMessagesPerSecond: Int?
    public var maxErrorsInARow: Int?
    public var maxPointers: Int?

    public init(
        host: String? = nil, port: Int? = nil, publicDirectory: String? = nil, token: String? = nil,
        auth: Bool? = nil, maxConnections: Int? = nil, maxMessageBytes: Int? = nil,
        maxMessagesPerSecond: Int? = nil, maxErrorsInARow: Int? = nil, maxPointers: Int? = nil
    ) {
        self.host = host
        self.port = port
        self.publicDirectory = publicDirectory
        self.token = token
        self.auth = auth
        self.maxConnections = maxConnections
        self.maxMessageBytes = maxMessageBytes
        self.maxMessagesPerSecond = maxMessagesPerSecond
        self.maxErrorsInARow = maxErrorsInARow
        self.maxPointers = maxPointers
    }

    /// These settings where given, else `lower`'s.
    public func overriding(_ lower: ServeSettings) -> ServeSettings {
        ServeSettings(
            host: host ?? lower.host, port: port ?? lower.port,
            publicDirectory: publicDirectory ?? lower.publicDirectory, token: token ?? lower.token,
            auth: auth ?? lower.auth, maxConnections: maxConnections ?? lower.maxConnections,
            maxMessageBytes: maxMessageBytes ?? lower.maxMessageBytes,
            maxMessagesPerSecond: maxMessagesPerSecond ?? lower.maxMessagesPerSecond,
            maxErrorsInARow: maxErrorsInARow ?? lower.maxErrorsInARow,
            maxPointers: maxPointers ?? lower.maxPointers)
    }

    /// The configuration to run with: flags over the environment's token over the file over
    /// the defaults. `publicDirectory` is the already resolved folder; `makeToken` makes the
    /// random token used when none is given. Throws a message naming the bad setting.
    public static func resolve(
        flags: ServeSettings, file: ServeSettings, environmentToken: String?,
        publicDirectory: String, gestures: GestureConfig, makeToken: () -> String = AccessToken.random
    ) throws(SettingsError) -> ServerConfiguration {
        var merged = flags.overriding(ServeSettings(token: environmentToken.flatMap { $0.isEmpty ? nil : $0 }))
        merged = merged.overriding(file)
        let port = merged.port ?? ServerConfiguration.defaultPort
        guard (0...65_535).contains(port) else { throw SettingsError("--port must be 0…65535, not \(port)") }
        var limits = ProtocolLimits()
        limits.maxMessageBytes = try positive(merged.maxMessageBytes, limits.maxMessageBytes, "--max-message-bytes")
        limits.maxMessagesPerSecond = try positive(merged.maxMessagesPerSecond, limits.maxMessagesPerSecond, "--max-rate")
        limits.maxErrorsInARow = try positive(merged.maxErrorsInARow, limits.maxErrorsInARow, "--max-errors")
        limits.maxPointers = try positive(merged.maxPointers, limits.maxPointers, "--max-pointers")
        let maxConnections = try positive(
            merged.maxConnections, ServerConfiguration.defaultMaxConnections, "--max-connections")
        var token: String?
        if merged.auth != false {
            let chosen = merged.token ?? makeToken()
            if let problem = AccessToken.problem(with: chosen) { throw SettingsError("bad token: \(problem)") }
            token = chosen
        }
        let host = merged.host.flatMap { ServerURLs.isWildcard($0) && $0 != "0.0.0.0" ? nil : $0 }
        return ServerConfiguration(
            host: host, port: port, publicDirectory: publicDirectory, token: token,
            maxConnections: maxConnections, limits: limits, gestures: gestures)
    }

    private static func positive(_ value: Int?, _ fallback: Int, _ name: String) throws(SettingsError) -> Int {
        guard let value else { return fallback }
        guard value > 0 else { throw SettingsError("\(name) must be at least 1, not \(value)") }
        return value
    }
}

/// A server setting that cannot be used, with a message for the user.
public struct SettingsError: Error, CustomStringConvertible, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
