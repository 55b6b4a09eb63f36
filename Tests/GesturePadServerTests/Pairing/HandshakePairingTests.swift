import Testing

@testable import GesturePadServer

@Suite struct HandshakePairingTests {
    let policy = HandshakePolicy(token: "s3cret", maxConnections: 2)
    let key = String(repeating: "k", count: DeviceKey.length)
    let missing = HandshakeDecision.refuse(status: 401, reason: "missing access token (?token=)")
    let wrong = HandshakeDecision.refuse(status: 403, reason: "wrong access token")

    func decide(token: String?, key: KeyStanding, origin: String? = nil, open: Int = 0) -> HandshakeDecision {
        let request = UpgradeRequest(path: "/ws", token: token, origin: origin, host: "10.0.0.5:8765")
        return policy.decide(request, openConnections: open, shuttingDown: false, key: key)
    }

    /// A paired device's key is a right token: the upgrade is that device's.
    @Test func pairedKeyIsAToken() {
        #expect(decide(token: key, key: .paired("d1")) == .accept(.device("d1")))
    }

    /// The pairing secret is a right token and pairs a new device.
    @Test func secretPairs() {
        #expect(decide(token: "s3cret", key: .unknown) == .accept(.pairing))
    }

    /// A forgotten key, a key nobody has and a wrong secret are refused in the handshake with 403.
    @Test func everythingElseIs403() {
        guard case .refuse(403, let reason) = decide(token: key, key: .forgotten) else {
            Issue.record("a forgotten key must be refused with 403")
            return
        }
        #expect(reason.contains("forgotten device"))
        #expect(decide(token: key, key: .unknown) == wrong)
        #expect(decide(token: "nope", key: .unknown) == wrong)
    }

    /// No token, or an empty one, is 401.
    @Test func nothingIs401() {
        #expect(decide(token: nil, key: .unknown) == missing)
        #expect(decide(token: "", key: .unknown) == missing)
    }

    /// A paired device still needs a matching Origin and room under the limit.
    @Test func originAndLimitStillApply() {
        #expect(
            decide(token: key, key: .paired("d1"), origin: "http://evil.example")
                == .refuse(status: 403, reason: "Origin does not match Host"))
        guard case .refuse(503, _) = decide(token: key, key: .paired("d1"), open: 2) else {
            Issue.record("expected 503")
            return
        }
    }

    /// Without pairing (the conformance mode) the token is a bearer token and keys mean nothing.
    @Test func withoutPairingKeysAreIgnored() {
        var bearer = policy
        bearer.pairsDevices = false
        let withKey = UpgradeRequest(path: "/ws", token: key, origin: nil, host: "h")
        #expect(bearer.decide(withKey, openConnections: 0, shuttingDown: false, key: .paired("d1")) == wrong)
        let withToken = UpgradeRequest(path: "/ws", token: "s3cret", origin: nil, host: "h")
        #expect(bearer.decide(withToken, openConnections: 0, shuttingDown: false) == .accept(.open))
    }
}
