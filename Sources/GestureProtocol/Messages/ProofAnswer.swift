/// The page's `auth` message, the answer to the server's `challenge` (docs/protocol.md "Proof
/// handshake"): which credential it proves it holds, its own nonce, and the proof — read by the
/// protocol's scanner (`AuthMessage`), its values checked here (base64url, lengths, the
/// credential); whether the proof holds is the server's to judge (`ProofJudge`).
///
///     {"type":"auth","with":"secret","nonce":"…43 base64url…","proof":"…43 base64url…"}
///     {"type":"auth","with":"secret","nonce":"…","proof":"…","kind":"observer"}
///     {"type":"auth","with":"device","device":"6d4054b3d55f","nonce":"…","kx":"…","dk":"…","proof":"…"}
///     {"type":"auth","with":"ticket","device":"6d4054b3d55f","nonce":"…","proof":"…"}
///     {"type":"auth","with":"desktop","nonce":"…","proof":"…"}
public struct ProofAnswer: Sendable, Hashable {
    /// Bytes of each side's nonce.
    public static let nonceBytes = 32

    /// What the proof is keyed by.
    public enum Credential: Sendable, Hashable {
        /// The pairing secret (the link's `#token=`): a new device pairs.
        case secret
        /// The key of the paired device with this id.
        case device(String)
        /// The move ticket the paired device with this id was given over plain HTTP when the
        /// server had started speaking TLS (docs/protocol.md "Moving to HTTPS"): it proves the
        /// device once, and the device gets a new key.
        case ticket(String)
        /// The desktop key (kept 0600 in the state directory): the desktop page of this
        /// computer's user watching the gestures (docs/server.md "The desktop page"); taken from
        /// a loopback peer only.
        case desktop
    }

    public var credential: Credential
    /// The page's nonce (`nonceBytes`).
    public var nonce: [UInt8]
    /// HMAC-SHA256, 32 bytes (the server's `WireProof.clientProof`).
    public var proof: [UInt8]
    /// The phone's model (at most 60 characters), naming a new device.
    public var model: String?
    /// The page's ephemeral X25519 public key, 32 bytes (docs/protocol.md "Key exchange"); nil
    /// for a client of the first handshake.
    public var exchange: [UInt8]?
    /// The device's static X25519 public key, 32 bytes (docs/protocol.md "Device key pairs"):
    /// the phone proves it holds the private half; nil for a client with no key pair.
    public var devicePublicKey: [UInt8]?
    /// What a new device pairs as (`auth.kind`; absent: a touchpad). Only a pairing (the
    /// secret) uses it: a paired device is what it was paired as.
    public var kind: DeviceKind

    public init(
        credential: Credential, nonce: [UInt8], proof: [UInt8], model: String? = nil, exchange: [UInt8]? = nil,
        devicePublicKey: [UInt8]? = nil, kind: DeviceKind = .touchpad
    ) {
        self.credential = credential
        self.nonce = nonce
        self.proof = proof
        self.model = model
        self.exchange = exchange
        self.devicePublicKey = devicePublicKey
        self.kind = kind
    }

    /// The answer in `message` (read by the protocol's scanner, `AuthMessage`), or why it is
    /// not one.
    public static func parse(_ message: [UInt8]) -> Result<ProofAnswer, ProofRefusal> {
        guard let wire = AuthMessage.decode(message) else {
            return .failure(.malformed("the first message must be the answer to the challenge (auth)"))
        }
        guard let nonce = Base64URL.decode(wire.nonce), nonce.count == nonceBytes,
            let proof = Base64URL.decode(wire.proof), proof.count == 32
        else { return .failure(.malformed("auth: nonce and proof must be 32 bytes of base64url each")) }
        let credential: Credential
        switch (wire.with, wire.device) {
        case ("secret", _): credential = .secret
        case ("device", let id?) where id.utf8.count <= 64: credential = .device(id)
        case ("ticket", let id?) where id.utf8.count <= 64: credential = .ticket(id)
        case ("desktop", _): credential = .desktop
        default:
            return .failure(
                .malformed(
                    "auth: \"with\" must be \"secret\" or \"desktop\", or \"device\" or \"ticket\" with the device's id"))
        }
        var exchange: [UInt8]?
        if let kx = wire.kx {
            guard let bytes = Base64URL.decode(kx), bytes.count == 32 else {
                return .failure(.malformed("auth: kx must be 32 bytes of base64url"))
            }
            exchange = bytes
        }
        var devicePublicKey: [UInt8]?
        if let dk = wire.dk {
            guard exchange != nil, let bytes = Base64URL.decode(dk), bytes.count == 32 else {
                return .failure(.malformed("auth: dk must be 32 bytes of base64url, with kx"))
            }
            devicePublicKey = bytes
        }
        // Absent (or null): a touchpad, as every page before it; present, it must name a kind.
        guard let kind = wire.kind.map(DeviceKind.init(rawValue:)) ?? .touchpad else {
            return .failure(.malformed("auth: \"kind\" must be \"touchpad\" or \"observer\""))
        }
        return .success(
            ProofAnswer(
                credential: credential, nonce: nonce, proof: proof, model: wire.model.map { String($0.prefix(60)) },
                exchange: exchange, devicePublicKey: devicePublicKey, kind: kind))
    }
}

/// Why a proof was refused: each is a close code the page explains (docs/protocol.md).
public enum ProofRefusal: Error, Sendable, Hashable {
    /// Not an `auth` message (1008).
    case malformed(String)
    /// A proof no credential of this computer's gives: a wrong or outdated secret, a device it
    /// does not know, a replayed answer (4410).
    case unknown
    /// The proof of a device key forgotten since (4411).
    case revoked
}
