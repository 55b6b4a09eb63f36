/// What `GET /pairing?token=TOKEN` answers (docs/protocol.md "Pairing status"): where that one
/// token stands. A browser cannot read the status of a refused WebSocket upgrade, so a page
/// whose upgrade failed asks here why. The answer names nothing but the state of the token
/// given: no device, no name, nothing about any other token.
public enum PairingStatus: String, Sendable, Hashable, CaseIterable {
    /// The token connects as it is: authentication is off, or the server pairs no devices
    /// (`--test-echo`) and the token is right.
    case open
    /// A paired device's key.
    case paired
    /// The pairing secret: a connection with it pairs a new device.
    case pairing
    /// The pairing secret while pairing is closed (additive; docs/server.md "Pairing is a
    /// moment"): it pairs nobody until `gesturepad pair`.
    case closed
    /// The key of a device that was forgotten on the computer, or unpaired on its phone.
    case revoked
    /// Anything else: no token, a wrong or outdated secret, a key this computer never had.
    case unknown

    /// Whether the answer refuses the token: such an answer counts toward the refusal limiter
    /// like a refused upgrade, so this is no way around it to guess tokens.
    public var refuses: Bool {
        switch self {
        case .open, .paired, .pairing, .closed: false
        case .revoked, .unknown: true
        }
    }

    /// The JSON body, `{"state":"…"}`; the pairing secret's adds `"confirm"`: whether a new
    /// device waits for the computer's user (`serve --confirm-pairing`).
    public func json(confirm: Bool) -> String {
        switch self {
        case .pairing: "{\"state\":\"pairing\",\"confirm\":\(confirm)}"
        case .open, .paired, .closed, .revoked, .unknown: "{\"state\":\"\(rawValue)\"}"
        }
    }
}

extension HandshakePolicy {
    /// Where `token` stands, by the very rule the handshake judges it with (`credentials`):
    /// `paired`, `pairing` and `open` connect; `revoked` and `unknown` are refused (403, or 401
    /// without a token).
    /// `pairingOpen`: whether the secret pairs now.
    public func status(of token: String?, key: KeyStanding, pairingOpen: Bool = true) -> PairingStatus {
        switch credentials(of: token, key: key) {
        case .success(.open): .open
        case .success(.device): .paired
        case .success(.pairing), .success(.proving): pairingOpen ? .pairing : .closed
        case .failure: pairsDevices && key == .forgotten ? .revoked : .unknown
        }
    }
}
