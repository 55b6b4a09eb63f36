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
    /// Throws a message naming the bad setting, and which layer gave it: a bad value of the
    /// file is the file's problem, the same value given by a flag a usage error.
    public static func resolve(
        flags: ServeSettings, file: ServeSettings, environmentToken: String?,
        publicDirectory: String, gestures: GestureConfig, makeToken: () -> String = AccessToken.random
    ) throws(SettingsError) -> ServerConfiguration {
        let merged = merge(flags: flags, file: file, environmentToken: environmentToken)
        let port = merged.port ?? ServerConfiguration.defaultPort
        guard portRange.contains(port) else {
            throw SettingsError(
                "--port must be \(portRange.lowerBound)…\(portRange.upperBound), not \(port)",
                origin: flags.port == nil ? .file : .command)
        }
        func limit(_ key: KeyPath<ServeSettings, Int?>, _ fallback: Int, _ name: String) throws(SettingsError) -> Int {
            guard let value = merged[keyPath: key] else { return fallback }
            guard limitRange.contains(value) else {
                throw SettingsError(
                    "\(name) must be at least \(limitRange.lowerBound), not \(value)",
                    origin: flags[keyPath: key] == nil ? .file : .command)
            }
            return value
        }
        var limits = ProtocolLimits()
        limits.maxMessageBytes = try limit(\.maxMessageBytes, limits.maxMessageBytes, "--max-message-bytes")
        limits.maxMessagesPerSecond = try limit(\.maxMessagesPerSecond, limits.maxMessagesPerSecond, "--max-rate")
        limits.maxErrorsInARow = try limit(\.maxErrorsInARow, limits.maxErrorsInARow, "--max-errors")
        limits.maxPointers = try limit(\.maxPointers, limits.maxPointers, "--max-pointers")
        let maxConnections = try limit(\.maxConnections, ServerConfiguration.defaultMaxConnections, "--max-connections")
        let token: String?
        let tokenOrigin: SettingsError.Origin
        switch tokenSource(flags: flags, file: file, environmentToken: environmentToken) {
        case .off:
            token = nil
            tokenOrigin = .command
        case .given(let given):
            token = given
            let fromCommand = flags.token != nil || environmentToken.map { !$0.isEmpty } == true
            tokenOrigin = fromCommand ? .command : .file
        case .remembered:
            token = makeToken()
            tokenOrigin = .remembered
        }
        if let token, let problem = AccessToken.problem(with: token) {
            throw SettingsError("bad token: \(problem)", origin: tokenOrigin)
        }
        let host = merged.host.flatMap { ServerConfiguration.isWildcard($0) && $0 != "0.0.0.0" ? nil : $0 }
        return ServerConfiguration(
            host: host, port: port, publicDirectory: publicDirectory, token: token,
            maxConnections: maxConnections, limits: limits, gestures: gestures)
    }

    private static func merge(flags: ServeSettings, file: ServeSettings, environmentToken: String?) -> ServeSettings {
        let environment = ServeSettings(token: environmentToken.flatMap { $0.isEmpty ? nil : $0 })
        return flags.overriding(environment).overriding(file)
    }
}

/// A server setting that cannot be used, with a message for the user and where it came from.
public struct SettingsError: Error, CustomStringConvertible, Equatable {
    /// The layer that gave the bad value.
    public enum Origin: Sendable, Equatable {
        /// A flag, or the environment's `GESTUREPAD_TOKEN`: a usage error.
        case command
        /// The configuration file's `server:` section: the file's problem.
        case file
        /// The token remembered in the state directory.
        case remembered
    }

    public var description: String
    public var origin: Origin
    public init(_ description: String, origin: Origin) {
        self.description = description
        self.origin = origin
    }
}
