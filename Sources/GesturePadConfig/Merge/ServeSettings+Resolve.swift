import GestureEngine
import GesturePadSettings
import GestureProtocol

/// Where the access token comes from: decided here once, for `serve` and for `resolve`.
public enum TokenSource: Sendable, Hashable {
    /// Authentication is off (`--no-auth`, or `server.auth: false`): no token at all.
    case off
    /// Given: `--token`, else `GESTUREPAD_TOKEN`, else the file's `server.token`.
    case given(String)
    /// None given: the one remembered in the state directory (made the first time).
    case remembered
}

/// The server's settings merged: flags over the environment's token over the file over the
/// defaults (docs/server.md).
extension ServeSettings {
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

    /// The token's source: `--no-auth` / `auth: false` turn it off whatever is given; else a
    /// token given by a flag, `GESTUREPAD_TOKEN` (empty counts as unset) or the file, in that
    /// order; else the remembered one.
    public static func tokenSource(flags: ServeSettings, file: ServeSettings, environmentToken: String?)
        -> TokenSource
    {
        let merged = merge(flags: flags, file: file, environmentToken: environmentToken)
        if merged.auth == false { return .off }
        return merged.token.map(TokenSource.given) ?? .remembered
    }

    /// The configuration to run with. `publicDirectory` is the already resolved folder;
    /// `makeToken` gives the token when none is given (the remembered one, or a random one).
    /// Throws a message naming the bad setting.
    public static func resolve(
        flags: ServeSettings, file: ServeSettings, environmentToken: String?,
        publicDirectory: String, gestures: GestureConfig, makeToken: () -> String = AccessToken.random
    ) throws(SettingsError) -> ServerConfiguration {
        let merged = merge(flags: flags, file: file, environmentToken: environmentToken)
        let port = merged.port ?? ServerConfiguration.defaultPort
        guard portRange.contains(port) else {
            throw SettingsError("--port must be \(portRange.lowerBound)…\(portRange.upperBound), not \(port)")
        }
        var limits = ProtocolLimits()
        limits.maxMessageBytes = try limit(merged.maxMessageBytes, limits.maxMessageBytes, "--max-message-bytes")
        limits.maxMessagesPerSecond = try limit(merged.maxMessagesPerSecond, limits.maxMessagesPerSecond, "--max-rate")
        limits.maxErrorsInARow = try limit(merged.maxErrorsInARow, limits.maxErrorsInARow, "--max-errors")
        limits.maxPointers = try limit(merged.maxPointers, limits.maxPointers, "--max-pointers")
        let maxConnections = try limit(
            merged.maxConnections, ServerConfiguration.defaultMaxConnections, "--max-connections")
        var token: String?
        switch tokenSource(flags: flags, file: file, environmentToken: environmentToken) {
        case .off: token = nil
        case .given(let given): token = given
        case .remembered: token = makeToken()
        }
        if let token, let problem = AccessToken.problem(with: token) { throw SettingsError("bad token: \(problem)") }
        let host = merged.host.flatMap { ServerConfiguration.isWildcard($0) && $0 != "0.0.0.0" ? nil : $0 }
        return ServerConfiguration(
            host: host, port: port, publicDirectory: publicDirectory, token: token,
            maxConnections: maxConnections, limits: limits, gestures: gestures)
    }

    private static func merge(flags: ServeSettings, file: ServeSettings, environmentToken: String?) -> ServeSettings {
        let environment = ServeSettings(token: environmentToken.flatMap { $0.isEmpty ? nil : $0 })
        return flags.overriding(environment).overriding(file)
    }

    private static func limit(_ value: Int?, _ fallback: Int, _ name: String) throws(SettingsError) -> Int {
        guard let value else { return fallback }
        guard limitRange.contains(value) else {
            throw SettingsError("\(name) must be at least \(limitRange.lowerBound), not \(value)")
        }
        return value
    }
}

/// A server setting that cannot be used, with a message for the user.
public struct SettingsError: Error, CustomStringConvertible, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
