import GestureProtocol

/// One device in `devices.json`: a phone (or any browser) that holds a device key, or one
/// that asked to pair and waits for the computer's user (`serve --confirm-pairing`); paired as
/// a touchpad, or as an observer that only watches.
public struct PairedDevice: Codable, Sendable, Hashable {
    /// Where the device stands.
    public enum State: String, Codable, Sendable {
        /// Holds a key: its connections need no pairing secret.
        case paired
        /// Asked to pair (`--confirm-pairing`); its page waits for an answer.
        case waiting
        /// Accepted with `gesturepad devices allow` while waiting: the running server hands
        /// it a key next and makes it `paired`.
        case allowed
    }

    /// Stable and not secret: names the device in `welcome.device`, notifications and logs.
    public var id: String
    /// Shown by `gesturepad devices` and in the notification; unique in the list.
    public var name: String
    public var state: State
    /// SHA-256 of the device key, hex (`DeviceKey.digest`), for a device proved by a shared key
    /// (a `?token=` client's, or a phone's of the first handshake until it moves to a key pair);
    /// nil until the device is paired, and for a device with a key pair.
    public var keySHA256: String?
    /// The X25519 public key of a device that proves itself with a key pair made on the phone
    /// (docs/protocol.md "Device key pairs"), base64url; its private half never leaves the
    /// phone, so this opens nothing and connects nobody. Absent from files written before it.
    public var publicKey: String?
    /// When it was paired, or when it asked while it waits (ISO 8601, UTC).
    public var paired: String
    /// When a connection of it last opened or closed (ISO 8601, UTC).
    public var lastSeen: String?
    /// Set only for an entry an outside client made by naming the pairing secret in the
    /// address (`/ws?token=SECRET`): that client's `User-Agent` (`DeviceName.client`). The
    /// next such pairing with the same `User-Agent` takes this entry again, with a new key,
    /// instead of adding one; an entry without it (a phone's) is never taken. Absent from files
    /// written before it existed, and from every phone's entry.
    public var tokenClient: String?
    /// What it was paired as: a touchpad (a phone's page; what an entry without the field is)
    /// or an observer (`watch.html`), whose connections may only watch.
    public var kind: DeviceKind
    /// The browser that paired it with the proof handshake (`BrowserDigest`: SHA-256 of its
    /// `User-Agent`, the model its page reported and its address): the same browser pairing
    /// again as the same kind takes this entry over while it is not connected, instead of
    /// adding one (docs/server.md "The same browser pairing again"). Absent from files written
    /// before it existed and from `?token=` pairings.
    public var browserSHA256: String?

    public init(
        id: String, name: String, state: State, keySHA256: String? = nil, publicKey: String? = nil, paired: String,
        lastSeen: String? = nil, tokenClient: String? = nil, kind: DeviceKind = .touchpad, browserSHA256: String? = nil
    ) {
        self.id = id
        self.name = name
        self.state = state
        self.keySHA256 = keySHA256
        self.publicKey = publicKey
        self.paired = paired
        self.lastSeen = lastSeen
        self.tokenClient = tokenClient
        self.kind = kind
        self.browserSHA256 = browserSHA256
    }

    /// An entry of `devices.json`; one without `kind` (written before it existed) is a touchpad,
    /// one with a kind this version does not know is an observer (the kind that may do least).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        state = try container.decode(State.self, forKey: .state)
        keySHA256 = try container.decodeIfPresent(String.self, forKey: .keySHA256)
        publicKey = try container.decodeIfPresent(String.self, forKey: .publicKey)
        paired = try container.decode(String.self, forKey: .paired)
        lastSeen = try container.decodeIfPresent(String.self, forKey: .lastSeen)
        tokenClient = try container.decodeIfPresent(String.self, forKey: .tokenClient)
        let storedKind = try container.decodeIfPresent(String.self, forKey: .kind)
        kind = storedKind.map { DeviceKind(rawValue: $0) ?? .observer } ?? .touchpad
        browserSHA256 = try container.decodeIfPresent(String.self, forKey: .browserSHA256)
    }
}

extension PairedDevice {
    /// `welcome.device` for this device, with `key` on the connection that paired it.
    func greeting(key: String? = nil) -> DeviceGreeting {
        DeviceGreeting(id: id, name: name, key: key, kind: kind)
    }

    /// Takes `credential` as what proves this device from now on: the other kind is dropped.
    mutating func adopt(_ credential: DeviceCredential) {
        switch credential {
        case .key(let key, _):
            keySHA256 = DeviceKey.digest(key)
            publicKey = nil
        case .publicKey(let key):
            publicKey = key
            keySHA256 = nil
        }
    }

    /// What `devices.json` remembers of this device's credential once it is forgotten
    /// (`DeviceList.forgottenKeys`): the key's digest, or that of its public key.
    var forgottenDigest: String? {
        keySHA256 ?? publicKey.map(DeviceCredential.forgottenDigest(ofPublicKey:))
    }
}
