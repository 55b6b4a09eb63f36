/// What proves a paired device from now on, as pairing takes it in (docs/protocol.md "Device
/// key pairs").
public enum DeviceCredential: Sendable, Hashable {
    /// A shared device key, 43 base64url characters: the server keeps its SHA-256 (`keySHA256`).
    /// `told`: handed to the client in `welcome.device.key` (a `?token=` pairing); otherwise
    /// derived on both sides by a client of the first handshake, and never sent.
    case key(String, told: Bool)
    /// The device's X25519 public key, base64url: kept as it is (`publicKey`). Its private half
    /// was made on the phone and never leaves it.
    case publicKey(String)

    /// The key to tell in `welcome.device.key`, if any.
    var toldKey: String? {
        switch self {
        case .key(let key, told: true): key
        case .key, .publicKey: nil
        }
    }

    /// What `devices.json` remembers of a forgotten device's public key: its digest under a
    /// label of its own, so it never equals the digest of a token given in an address.
    static func forgottenDigest(ofPublicKey key: String) -> String {
        DeviceKey.digest("gesturepad/1 public key\u{0}" + key)
    }
}
