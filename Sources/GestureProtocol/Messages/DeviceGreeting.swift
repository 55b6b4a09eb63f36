/// The paired device a connection belongs to, as `welcome.device` tells the page (additive,
/// docs/protocol.md "Pairing"): its id and name, and its device key on the connection that
/// paired it — the only time the key is ever sent.
public struct DeviceGreeting: Sendable, Hashable {
    /// The device's id (stable, not secret).
    public var id: String
    /// Its name, as `gesturepad devices` lists it.
    public var name: String
    /// The device key, on the pairing connection only (nil on every later one).
    public var key: String?

    public init(id: String, name: String, key: String? = nil) {
        self.id = id
        self.name = name
        self.key = key
    }
}
