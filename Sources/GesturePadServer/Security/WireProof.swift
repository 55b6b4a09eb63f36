import Crypto
import FoundationEssentials
import GestureProtocol

/// The arithmetic of the proof handshake (docs/protocol.md "Proof handshake"): what the phone
/// and the server compute from a credential they share and the two nonces of one connection,
/// so that no credential ever crosses the wire. Pure, no state; the page's `js/proof.js` computes
/// the same (tests/browser checks both against each other).
///
/// A credential is the pairing secret, a move ticket, the desktop key or a shared device key, as
/// text; both sides key everything by its SHA-256 (`credentialDigest`), which is what the server
/// keeps of a shared device key. A phone's own device is a key pair instead (docs/protocol.md
/// "Device key pairs"): the server keeps its public key only, and the phone proves the private
/// half through the exchange (`Keying`), so a stolen `devices.json` connects nobody.
public enum WireProof {
    /// Bytes of each side's nonce.
    public static let nonceBytes = ProofAnswer.nonceBytes

    /// Domain-separation labels: one per use, so no value computed for one purpose is ever
    /// valid for another.
    enum Label {
        static let clientProof = "gesturepad/1 client proof"
        static let serverProof = "gesturepad/1 server proof"
        static let deviceKey = "gesturepad/1 device key"
        static let sessionKeys = "gesturepad/1 session keys"
        static let exchange = "gesturepad/1 exchange"
    }

    /// How one connection's keys are made (docs/protocol.md "Key exchange", "Device key pairs").
    /// `client` is what follows the server's nonce in every transcript and salt: the page's
    /// nonce, then — with the exchange — the server's and the page's ephemeral public keys, then
    /// — with a device key pair — the server's identity key and the device's public key.
    /// `shared`: the X25519 shared secrets (ephemeral–ephemeral, then server ephemeral–device
    /// and server identity–page ephemeral), nil for a page that sent no key of its own.
    public struct Keying: Sendable {
        public var client: [UInt8]
        public var shared: [UInt8]?

        public init(client: [UInt8], shared: [UInt8]?) {
            self.client = client
            self.shared = shared
        }

        /// The key every proof and derivation of the connection is keyed by, for credential
        /// digest `digest`: the digest itself without the exchange; with it,
        /// HKDF-SHA256(IKM digest ‖ shared secrets, salt server nonce ‖ `client`, info
        /// "gesturepad/1 exchange", 32 bytes) — which the credential alone cannot give.
        public func key(_ digest: SymmetricKey, server: [UInt8]) -> SymmetricKey {
            guard let shared else { return digest }
            return mix(digest.bytes + shared, server: server)
        }

        /// The key of a device key pair's proof, which no stored credential keys: the same
        /// HKDF over the shared secrets alone. Nil without an exchange.
        public func key(server: [UInt8]) -> SymmetricKey? {
            shared.map { mix($0, server: server) }
        }

        private func mix(_ material: [UInt8], server: [UInt8]) -> SymmetricKey {
            let material = SymmetricKey(data: material)
            return HKDF<SHA256>.deriveKey(
                inputKeyMaterial: material, salt: server + client, info: Array(Label.exchange.utf8), outputByteCount: 32)
        }
    }

    /// The SHA-256 of a credential's UTF-8 text: the key of every proof and derivation.
    public static func credentialDigest(_ credential: String) -> SymmetricKey {
        SymmetricKey(data: Data(SHA256.hash(data: Data(credential.utf8))))
    }

    /// A stored device digest (64 hex digits) as the key it stands for; nil when malformed.
    public static func digestKey(hex: String) -> SymmetricKey? {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 32)
        for index in 0..<32 {
            guard let high = nibble(digits[2 * index]), let low = nibble(digits[2 * index + 1]) else { return nil }
            bytes[index] = high << 4 | low
        }
        return SymmetricKey(data: bytes)
    }

    /// The phone's proof: HMAC-SHA256 under the credential's digest of the client label, a
    /// zero byte, the server's nonce and the client's.
    public static func clientProof(_ key: SymmetricKey, server: [UInt8], client: [UInt8]) -> [UInt8] {
        mac(key, label: Label.clientProof, server: server, client: client)
    }

    /// The server's answer: the same under the server label (the page checks it: a server that
    /// does not know the credential cannot give it).
    public static func serverProof(_ key: SymmetricKey, server: [UInt8], client: [UInt8]) -> [UInt8] {
        mac(key, label: Label.serverProof, server: server, client: client)
    }

    /// Whether `proof` is the phone's proof for `key` and the nonces (compared in constant time).
    public static func verify(_ proof: [UInt8], key: SymmetricKey, server: [UInt8], client: [UInt8]) -> Bool {
        HMAC<SHA256>.isValidAuthenticationCode(
            proof, authenticating: transcript(Label.clientProof, server: server, client: client), using: key)
    }

    /// The key of a device paired on this connection: HKDF-SHA256 of the pairing secret's
    /// digest, salted with both nonces, as 43 base64url characters (the shape of every device
    /// key). Both sides compute it; it is never sent.
    public static func deviceKey(secret: SymmetricKey, server: [UInt8], client: [UInt8]) -> String {
        let derived = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: secret, salt: server + client, info: Array(Label.deviceKey.utf8), outputByteCount: 32)
        return Base64URL.encode(derived.bytes)
    }

    /// The connection's two sealing keys (page → server, server → page): HKDF-SHA256 of the
    /// credential's digest, salted with both nonces.
    public static func sessionKeys(_ key: SymmetricKey, server: [UInt8], client: [UInt8]) -> (
        toServer: SymmetricKey, toPage: SymmetricKey
    ) {
        let both = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: key, salt: server + client, info: Array(Label.sessionKeys.utf8), outputByteCount: 64)
        let bytes = both.bytes
        return (SymmetricKey(data: bytes[0..<32]), SymmetricKey(data: bytes[32..<64]))
    }

    /// A fresh nonce from the system CSPRNG.
    public static func nonce() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<nonceBytes).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    private static func mac(_ key: SymmetricKey, label: String, server: [UInt8], client: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: transcript(label, server: server, client: client), using: key))
    }

    private static func transcript(_ label: String, server: [UInt8], client: [UInt8]) -> [UInt8] {
        Array(label.utf8) + [0] + server + client
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
