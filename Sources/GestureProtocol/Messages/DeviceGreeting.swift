/// The paired device a connection belongs to, as `welcome.device` tells the page (additive,
/// docs/protocol.md "Pairing"): its id and name, and its device key on the connection that
/// paired it — the only time the key is ever sent. `kind` stays on the server: it tells the
/// session whether the device may say it is a touchpad (never written to the wire).
public struct DeviceGreeting: Sendable, Hashable {
    /// The device's id (stable, not secret).
    public var id: String
    /// Its name, as `gesturepad devices` lists it.
    public var name: String
    /// The device key, on the pairing connection only (nil on every later one).
    public var key: String?
    /// What the device was paired as: an observer's connections may not be touchpads.
    public var kind: DeviceKind

    public init(id: String, name: String, key: String? = nil, kind: DeviceKind = .touchpad) {
        self.id = id
        self.name = name
        self.key = key
        self.kind = kind
    }
}
