import GesturePadSettings

/// The facts of a WebSocket upgrade request the server judges.
public struct UpgradeRequest: Sendable, Hashable {
    /// The request path without its query (`/ws`).
    public var path: String
    /// The `token` query argument, if any: the pairing secret, or a paired device's key.
    public var token: String?
    /// The `Origin` header, if any.
    public var origin: String?
    /// The `Host` header, if any.
    public var host: String?
    /// Length of the `Sec-WebSocket-Extensions` offer (all such headers together), 0 when absent.
    public var extensionOfferLength: Int
    /// `?proof=1`: the client proves what it holds after the upgrade, sending no credential
    /// (docs/protocol.md "Proof handshake").
    public var proof: Bool
    /// Whether a credential in the address cannot be read on the way: the connection is TLS,
    /// or comes from this computer (loopback). PROTOCOL.md "Connecting" takes `?token=` from
    /// anywhere; elsewhere the server only warns (`WebServer.warnClearCredential`).
    public var trustedTransport: Bool

    public init(
        path: String, token: String?, origin: String?, host: String?, extensionOfferLength: Int = 0,
        proof: Bool = false, trustedTransport: Bool = true
    ) {
        self.path = path
        self.token = token
        self.origin = origin
        self.host = host
        self.extensionOfferLength = extensionOfferLength
        self.proof = proof
        self.trustedTransport = trustedTransport
    }
}

/// Who an accepted upgrade is (docs/server.md "Pairing").
public enum Admission: Sendable, Hashable {
    /// Authentication is off (`--no-auth`), the server pairs no devices (`--test-echo`), or
    /// the pairing secret came in the address over plain HTTP from another machine: connected
    /// as an outside client, not paired (no device, no key).
    case open
    /// The token is the key of the paired device with this id.
    case device(String)
    /// The token is the pairing secret: a new device, paired now (or once the computer's user
    /// accepts it, with `--confirm-pairing`).
    case pairing
    /// No credential yet (`?proof=1`): the connection proves what it holds after the upgrade
    /// (docs/protocol.md "Proof handshake"), and is judged then.
    case proving
}

/// What to answer an upgrade request.
public enum HandshakeDecision: Sendable, Hashable {
    /// Upgrade; who the connection is.
    case accept(Admission)
    /// Refuse with this HTTP status; `reason` is for the log and the response body.
    case refuse(status: Int, reason: String)
}

/// Decides WebSocket upgrades (PROTOCOL.md "Connecting"): the path must be `/ws`, an extension
/// offer short enough for lws to read (431), a right token — the pairing secret or a paired
/// device's key (401 when none is given, 403 when it is neither), taken only over TLS or from
/// this computer (403 otherwise) — or `?proof=1`, which proves it after the upgrade; a browser
/// `Origin` must match `Host` (403), and there must be room under the connection limit (503).
public struct HandshakePolicy: Sendable {
    /// The pairing secret (the token); `nil` when authentication is off.
    public var token: String?
    public var maxConnections: Int
    /// Whether connections are paired devices (docs/server.md "Pairing"); without it the token
    /// is a plain bearer token and device keys mean nothing (`--test-echo`).
    public var pairsDevices = true

    /// The longest `Sec-WebSocket-Extensions` offer lws 4.1 can read. It fails the handshake of a
    /// longer one after the upgrade was accepted, dropping the connection without any HTTP
    /// answer (its offer parser stops at 255 bytes). The server negotiates no extension, so a
    /// shorter offer is simply declined; a longer one is refused with 431 beforehand.
    public static let maxExtensionOfferLength = 254

    public init(token: String?, maxConnections: Int) {
        self.token = token
        self.maxConnections = maxConnections
    }

    /// Judges `request` given the connections already open, whether the server is stopping,
    /// and where its token stands as a device key (`PairingService.standing`).
    /// Connections from one address that may wait at once for their proof to be judged: a page
    /// answers its challenge at once, so more are someone holding connections open to fill the
    /// connection limit and lock the phones out (docs/security.md).
    public static let unprovenPerAddress = 8

    /// `unprovenFromAddress`: the connections of the request's address still owing their proof.
    public func decide(
        _ request: UpgradeRequest, openConnections: Int, shuttingDown: Bool, key: KeyStanding = .unknown,
        unprovenFromAddress: Int = 0
    ) -> HandshakeDecision {
        if request.path != "/ws" {
            return .refuse(status: 404, reason: "no WebSocket endpoint at this path (use /ws)")
        }
        if request.extensionOfferLength > Self.maxExtensionOfferLength {
            return .refuse(
                status: 431,
                reason: "Sec-WebSocket-Extensions over \(Self.maxExtensionOfferLength) bytes (no extension is supported)")
        }
        if shuttingDown {
            return .refuse(status: 503, reason: "the server is shutting down")
        }
        let admission: Admission
        if request.proof {
            guard unprovenFromAddress < Self.unprovenPerAddress else {
                return .refuse(
                    status: 429,
                    reason: "\(Self.unprovenPerAddress) connections from this address have not proved themselves yet")
            }
            admission = .proving
        } else {
            switch credentials(of: request.token, key: key) {
            case .success(.pairing) where !request.trustedTransport:
                // The secret in the address, over plain HTTP from another machine (PROTOCOL.md's
                // `?token=`): it connects, but pairs no device — a device key in its welcome would
                // cross in clear, a permanent credential for any listener (docs/security.md).
                admission = .open
            case .success(let who): admission = who
            case .failure(let refusal): return refusal.decision
            }
        }
        if let origin = request.origin, !OriginMatcher.matches(origin: origin, host: request.host) {
            return .refuse(status: 403, reason: "Origin does not match Host")
        }
        if openConnections >= maxConnections {
            return .refuse(status: 503, reason: "connection limit (\(maxConnections)) reached")
        }
        return .accept(admission)
    }

    /// A refused credential, as the decision to answer.
    struct CredentialRefusal: Error {
        var decision: HandshakeDecision
    }

    /// Who the token is: a paired device's key, or the pairing secret; anything else — a
    /// forgotten key, a key nobody has, a wrong secret — is refused (403), no token at all too
    /// (401). The secret is compared whatever the key's standing, so the time taken does not
    /// tell which one the token is.
    func credentials(of given: String?, key: KeyStanding) -> Result<Admission, CredentialRefusal> {
        guard let token else { return .success(.open) }
        guard let given, !given.isEmpty else {
            return .failure(CredentialRefusal(decision: .refuse(status: 401, reason: "missing access token (?token=)")))
        }
        let isSecret = AccessToken.matches(given, expected: token)
        switch (pairsDevices ? key : .unknown, isSecret) {
        case (.paired(let id), _):
            return .success(.device(id))
        case (_, true):
            return .success(pairsDevices ? .pairing : .open)
        case (.forgotten, false):
            return .failure(
                CredentialRefusal(
                    decision: .refuse(status: 403, reason: "the key of a forgotten device (pair again with the pairing secret)")))
        case (.unknown, false):
            return .failure(CredentialRefusal(decision: .refuse(status: 403, reason: "wrong access token")))
        }
    }
}
