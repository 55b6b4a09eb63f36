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

    public init(serverNonce: [UInt8] = WireProof.nonce()) {
        self.serverNonce = serverNonce
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
        switch answer.credential {
        case .secret:
            let key = WireProof.credentialDigest(secret)
            guard WireProof.verify(answer.proof, key: key, server: serverNonce, client: answer.nonce) else {
                return .failure(.unknown)
            }
            guard devices != nil else { return .success(admitted(.open, key: key, client: answer.nonce)) }
            var result = admitted(.pairing, key: key, client: answer.nonce)
            result.newDeviceKey = WireProof.deviceKey(secret: key, server: serverNonce, client: answer.nonce)
            return .success(result)
        case .device(let id):
            guard let devices else { return .failure(.unknown) }
            return device(id, answer, in: devices)
        case .ticket(let id):
            guard let devices, let device = devices.device(id), device.state == .paired, let digest = tickets[id],
                let key = WireProof.digestKey(hex: digest),
                WireProof.verify(answer.proof, key: key, server: serverNonce, client: answer.nonce)
            else { return .failure(.unknown) }
            var result = admitted(.device(id), key: key, client: answer.nonce)
            result.newDeviceKey = WireProof.deviceKey(secret: key, server: serverNonce, client: answer.nonce)
            result.moved = true
            return .success(result)
        case .desktop:
            // The computer's own user: connected, not paired (no device, no key).
            guard let desktopKey, !desktopKey.isEmpty else { return .failure(.unknown) }
            let key = WireProof.credentialDigest(desktopKey)
            guard WireProof.verify(answer.proof, key: key, server: serverNonce, client: answer.nonce) else {
                return .failure(.unknown)
            }
            return .success(admitted(.open, key: key, client: answer.nonce))
        }
    }

    /// A device's proof: keyed by its stored digest; a forgotten key's proof is told apart (so
    /// its page can say so); every forgotten digest is tried, whatever matches.
    private func device(_ id: String, _ answer: ProofAnswer, in devices: DeviceList) -> Result<Admitted, ProofRefusal> {
        if let device = devices.device(id), device.state == .paired, let digest = device.keySHA256,
            let key = WireProof.digestKey(hex: digest),
            WireProof.verify(answer.proof, key: key, server: serverNonce, client: answer.nonce)
        {
            return .success(admitted(.device(id), key: key, client: answer.nonce))
        }
        var forgotten = false
        for digest in devices.forgottenKeys {
            guard let key = WireProof.digestKey(hex: digest) else { continue }
            let match = WireProof.verify(answer.proof, key: key, server: serverNonce, client: answer.nonce)
            forgotten = forgotten || match
        }
        return .failure(forgotten ? .revoked : .unknown)
    }

    private func admitted(_ admission: Admission, key: SymmetricKey, client: [UInt8]) -> Admitted {
        let keys = WireProof.sessionKeys(key, server: serverNonce, client: client)
        return Admitted(
            admission: admission, toServer: keys.toServer, toPage: keys.toPage,
            serverProof: WireProof.serverProof(key, server: serverNonce, client: client), newDeviceKey: nil)
    }
}
