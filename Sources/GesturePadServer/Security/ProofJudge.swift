import Crypto
import GestureProtocol

/// The server's half of one proof handshake (docs/protocol.md "Proof handshake"): the nonce it
/// sent, and the verdict on the page's answer. Pure: the secret and the device list come in.
/// Whether the secret pairs now is pairing's to decide (`PairingDesk`: a device that proves it
/// while pairing is closed waits for it to open).
public struct ProofJudge: Sendable {
    /// What an accepted proof admits.
    public struct Admitted {
        /// Who the connection is.
        public var admission: Admission
        /// The connection's sealing keys (`WireProof.sessionKeys`).
        public var toServer: SymmetricKey
        public var toPage: SymmetricKey
        /// The server's proof, for the `authenticated` message.
        public var serverProof: [UInt8]
        /// The key of the device this connection pairs (`.pairing`), or the new key of the
        /// device that proved a move ticket (`moved`): derived, never sent. Nil when the page
        /// brought a key pair (`devicePublicKey`).
        public var newDeviceKey: String?
        /// The public key (base64url) of the key pair the page proved, when pairing keeps it
        /// from now on: the device this connection pairs, moves (`moved`) or moves over from a
        /// shared key (`rekeyed`).
        public var devicePublicKey: String?
        /// The proof was a move ticket's: the device takes `newDeviceKey` or `devicePublicKey`
        /// as its credential from now on (what it proved over plain HTTP opens nothing any more).
        public var moved = false
        /// A paired device proved its shared key and a key pair of its own: its public key
        /// replaces the shared key (docs/protocol.md "Device key pairs": phones paired before
        /// key pairs move over without pairing again).
        public var rekeyed = false
    }

    /// The server's nonce of this connection (fresh per connection: a recorded answer proves
    /// nothing to another).
    public let serverNonce: [UInt8]

    /// The server's ephemeral X25519 key of this connection (docs/protocol.md "Key exchange"):
    /// mixed into every key of a connection whose page sends its own, so that what was recorded
    /// cannot be opened later with the credential (a stolen `devices.json`, the secret).
    private let exchange: Curve25519.KeyAgreement.PrivateKey

    /// The public half of `exchange`, sent in the challenge (`kx`).
    public var exchangePublicKey: [UInt8] { Array(exchange.publicKey.rawRepresentation) }

    /// The server's static identity key (`identity-key` in the state directory, docs/protocol.md
    /// "Device key pairs"): a phone pins its public half when it pairs, and every later proof
    /// of the server is over an exchange with it — which `devices.json` alone cannot give.
    private let identity: Curve25519.KeyAgreement.PrivateKey?

    /// The public half of `identity`, sent in the challenge (`sk`).
    public var identityPublicKey: [UInt8]? { identity.map { Array($0.publicKey.rawRepresentation) } }

    public init(
        serverNonce: [UInt8] = WireProof.nonce(), exchange: Curve25519.KeyAgreement.PrivateKey = .init(),
        identity: Curve25519.KeyAgreement.PrivateKey? = nil
    ) {
        self.serverNonce = serverNonce
        self.exchange = exchange
        self.identity = identity
    }

    /// The identity key written as `text` (43 base64url characters: any 32 bytes are an X25519
    /// private key), or nil when it is not that.
    public static func identity(base64URL text: String) -> Curve25519.KeyAgreement.PrivateKey? {
        Base64URL.decode(text).flatMap { try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: $0) }
    }

    /// The verdict on `answer`: `secret` is the pairing secret (nil: authentication is off —
    /// no proof handshake then), `devices` the device list (nil: the server pairs no devices,
    /// the secret is a plain bearer token), `tickets` the digests of the move tickets given and
    /// not yet used, by device id (`MoveTickets.digests`), `desktopKey` the desktop key when the
    /// connection comes from this computer (nil otherwise: a desktop proof from elsewhere
    /// proves nothing).
    public func judge(
        _ answer: ProofAnswer, secret: String, devices: DeviceList?, tickets: [String: String] = [:],
        desktopKey: String? = nil
    ) -> Result<Admitted, ProofRefusal> {
        guard let keying = keying(for: answer) else {
            return .failure(
                .malformed("auth: kx (and dk) must be X25519 public keys that give shared secrets"))
        }
        /// The connection's key for credential digest `digest` (nil: the device's key pair
        /// alone), when the answer proves it.
        func proven(_ digest: SymmetricKey?) -> SymmetricKey? {
            guard let key = digest.map({ keying.key($0, server: serverNonce) }) ?? keying.key(server: serverNonce) else {
                return nil
            }
            return WireProof.verify(answer.proof, key: key, server: serverNonce, client: keying.client) ? key : nil
        }
        let publicKey = answer.devicePublicKey.map { Base64URL.encode($0) }
        /// What a proof that pairs or moves a device gives it: its key pair's public key, or a
        /// key derived on both sides.
        func credential(of result: inout Admitted, key: SymmetricKey) {
            if let publicKey {
                result.devicePublicKey = publicKey
            } else {
                result.newDeviceKey = WireProof.deviceKey(secret: key, server: serverNonce, client: keying.client)
            }
        }
        switch answer.credential {
        case .secret:
            guard let key = proven(WireProof.credentialDigest(secret)) else { return .failure(.unknown) }
            guard devices != nil else { return .success(admitted(.open, key: key, client: keying.client)) }
            var result = admitted(.pairing, key: key, client: keying.client)
            credential(of: &result, key: key)
            return .success(result)
        case .device(let id):
            guard let devices else { return .failure(.unknown) }
            if let device = devices.device(id), device.state == .paired {
                if let stored = device.publicKey {
                    // A key pair proves itself through the exchange alone; nothing stored is a key.
                    if publicKey == stored, let key = proven(nil) {
                        return .success(admitted(.device(id), key: key, client: keying.client))
                    }
                } else if let digest = device.keySHA256, let stored = WireProof.digestKey(hex: digest),
                    let key = proven(stored)
                {
                    var result = admitted(.device(id), key: key, client: keying.client)
                    result.devicePublicKey = publicKey
                    result.rekeyed = publicKey != nil
                    return .success(result)
                }
            }
            // A forgotten key's proof is told apart (its page can say so); every forgotten
            // digest is tried, whatever matches.
            var forgotten = false
            if let publicKey,
                devices.forgottenKeys.contains(DeviceCredential.forgottenDigest(ofPublicKey: publicKey))
            {
                forgotten = proven(nil) != nil
            }
            for digest in devices.forgottenKeys {
                guard let stored = WireProof.digestKey(hex: digest) else { continue }
                forgotten = proven(stored) != nil || forgotten
            }
            return .failure(forgotten ? .revoked : .unknown)
        case .ticket(let id):
            guard let devices, let device = devices.device(id), device.state == .paired, let digest = tickets[id],
                let stored = WireProof.digestKey(hex: digest), let key = proven(stored)
            else { return .failure(.unknown) }
            var result = admitted(.device(id), key: key, client: keying.client)
            credential(of: &result, key: key)
            result.moved = true
            return .success(result)
        case .desktop:
            // The computer's own user: connected, not paired (no device, no key).
            guard let desktopKey, !desktopKey.isEmpty, let key = proven(WireProof.credentialDigest(desktopKey)) else {
                return .failure(.unknown)
            }
            return .success(admitted(.open, key: key, client: keying.client))
        }
    }

    /// How the answer's keys are made: with the page's ephemeral key (`kx`), the shared secret
    /// of the exchange goes into every key and both public keys into the transcript; with a
    /// device key pair (`dk`) too, two more exchanges — this connection's key with the
    /// device's, which only the holder of the device's private key can match, and the server's
    /// identity key with the page's ephemeral one, which only this server can match — and both
    /// static public keys into the transcript (the pattern of Noise's KK handshake: ee, es,
    /// se). Without `kx` (an outside client of the first handshake), the credential's digest
    /// and the nonces alone. Nil when a key gives no shared secret (not a curve point, or one
    /// of small order: all-zero output), or a key pair comes to a server without an identity.
    private func keying(for answer: ProofAnswer) -> WireProof.Keying? {
        guard let theirs = answer.exchange else { return WireProof.Keying(client: answer.nonce, shared: nil) }
        guard let ephemeral = Self.agree(exchange, theirs) else { return nil }
        let client = answer.nonce + exchangePublicKey + theirs
        guard let device = answer.devicePublicKey else { return WireProof.Keying(client: client, shared: ephemeral) }
        guard let identity, let identityPublicKey, let deviceTerm = Self.agree(exchange, device),
            let identityTerm = Self.agree(identity, theirs)
        else { return nil }
        return WireProof.Keying(
            client: client + identityPublicKey + device, shared: ephemeral + deviceTerm + identityTerm)
    }

    /// X25519 of `mine` with public key `theirs`; nil when `theirs` is no key or gives the
    /// all-zero secret of a point of small order.
    private static func agree(_ mine: Curve25519.KeyAgreement.PrivateKey, _ theirs: [UInt8]) -> [UInt8]? {
        guard let publicKey = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: theirs),
            let secret = try? mine.sharedSecretFromKeyAgreement(with: publicKey)
        else { return nil }
        let shared = secret.bytes
        return shared.contains(where: { $0 != 0 }) ? shared : nil
    }

    private func admitted(_ admission: Admission, key: SymmetricKey, client: [UInt8]) -> Admitted {
        let keys = WireProof.sessionKeys(key, server: serverNonce, client: client)
        return Admitted(
            admission: admission, toServer: keys.toServer, toPage: keys.toPage,
            serverProof: WireProof.serverProof(key, server: serverNonce, client: client), newDeviceKey: nil)
    }
}
