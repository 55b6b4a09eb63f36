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
        /// device that proved a move ticket (`moved`): derived, never sent.
        public var newDeviceKey: String?
        /// The proof was a move ticket's: the device takes `newDeviceKey` as its key from now on
        /// (the one it proved over plain HTTP opens nothing any more).
        public var moved = false
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

    public init(
        serverNonce: [UInt8] = WireProof.nonce(), exchange: Curve25519.KeyAgreement.PrivateKey = .init()
    ) {
        self.serverNonce = serverNonce
        self.exchange = exchange
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
            return .failure(.malformed("auth: kx must be an X25519 public key that gives a shared secret"))
        }
        /// The connection's key for credential digest `digest`, when the answer proves it.
        func proven(_ digest: SymmetricKey) -> SymmetricKey? {
            let key = keying.key(digest, server: serverNonce)
            return WireProof.verify(answer.proof, key: key, server: serverNonce, client: keying.client) ? key : nil
        }
        switch answer.credential {
        case .secret:
            guard let key = proven(WireProof.credentialDigest(secret)) else { return .failure(.unknown) }
            guard devices != nil else { return .success(admitted(.open, key: key, client: keying.client)) }
            var result = admitted(.pairing, key: key, client: keying.client)
            result.newDeviceKey = WireProof.deviceKey(secret: key, server: serverNonce, client: keying.client)
            return .success(result)
        case .device(let id):
            guard let devices else { return .failure(.unknown) }
            if let device = devices.device(id), device.state == .paired, let digest = device.keySHA256,
                let stored = WireProof.digestKey(hex: digest), let key = proven(stored)
            {
                return .success(admitted(.device(id), key: key, client: keying.client))
            }
            // A forgotten key's proof is told apart (its page can say so); every forgotten
            // digest is tried, whatever matches.
            var forgotten = false
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
            result.newDeviceKey = WireProof.deviceKey(secret: key, server: serverNonce, client: keying.client)
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
    /// of the exchange goes into every key and both public keys into the transcript; without
    /// it (an outside client of the first handshake), the credential's digest and the nonces
    /// alone. Nil when the page's key gives no shared secret (not a curve point, or one of
    /// small order: all-zero output).
    private func keying(for answer: ProofAnswer) -> WireProof.Keying? {
        guard let theirs = answer.exchange else { return WireProof.Keying(client: answer.nonce, shared: nil) }
        guard let publicKey = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: theirs),
            let secret = try? exchange.sharedSecretFromKeyAgreement(with: publicKey)
        else { return nil }
        let shared = secret.bytes
        guard shared.contains(where: { $0 != 0 }) else { return nil }
        return WireProof.Keying(client: answer.nonce + exchangePublicKey + theirs, shared: shared)
    }

    private func admitted(_ admission: Admission, key: SymmetricKey, client: [UInt8]) -> Admitted {
        let keys = WireProof.sessionKeys(key, server: serverNonce, client: client)
        return Admitted(
            admission: admission, toServer: keys.toServer, toPage: keys.toPage,
            serverProof: WireProof.serverProof(key, server: serverNonce, client: client), newDeviceKey: nil)
    }
}
