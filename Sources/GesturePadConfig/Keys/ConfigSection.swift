/// A mapping of the configuration file (`server:`, `server.limits:`, the top level …) and the
/// keys it allows, in the docs' order.
public struct ConfigSection: Sendable {
    /// Its place in the file (`server.limits`); nil for the top level.
    public let path: String?
    public let keys: [ConfigKey]

    init(_ path: String?, _ keys: [ConfigKey]) {
        self.path = path
        self.keys = keys
    }

    /// The allowed key names, for "unknown key" and its suggestion.
    public var names: [String] { keys.map(\.name) }

    public func key(_ name: String) -> ConfigKey? { keys.first { $0.name == name } }

    /// How messages name it: "unknown key 'x' in server.limits", "… in top level".
    var label: String { path ?? "top level" }

    /// "server must be a mapping …", "the configuration file must be a mapping …".
    var what: String { path ?? "the configuration file" }

    /// A key's full name in messages: `server.limits.maxPointers`.
    func fullName(_ key: String) -> String { path.map { "\($0).\(key)" } ?? key }
}
