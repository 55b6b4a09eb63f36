import Testing

@testable import GesturePadServer

@Suite struct HandshakePairingTests {
    let policy = HandshakePolicy(token: "s3cret", maxConnections: 2)
    let key = String(repeating: "k", count: DeviceKey.length)

    func decide(token: String?, key: String?, paired: String?, origin: String? = nil, open: Int = 0) -> HandshakeDecision {
        let request = UpgradeRequest(path: "/ws", token: token, deviceKey: key, origin: origin, host: "10.0.0.5:8765")
        return policy.decide(request, openConnections: open, shuttingDown: false, pairedDevice: paired)
    }

    /// A paired device's key needs no secret; with a secret too (even a wrong one) the key decides.
    @Test func knownKeyNeedsNoSecret() {
        #expect(decide(token: nil, key: key, paired: "d1") == .accept(.device("d1")))
        #expect(decide(token: "s3cret", key: key, paired: "d1") == .accept(.device("d1")))
        #expect(decide(token: "wrong", key: key, paired: "d1") == .accept(.device("d1")))
    }

    /// The secret without a known key pairs a new device; a stale key with the right secret too.
    @Test func secretPairs() {
        #expect(decide(token: "s3cret", key: nil, paired: nil) == .accept(.pairing))
        #expect(decide(token: "s3cret", key: key, paired: nil) == .accept(.pairing))
    }

    /// An unknown key without a secret is upgraded to be told why (4403); with a wrong secret it
    /// is a wrong secret (403).
    @Test func unknownKey() {
        #expect(decide(token: nil, key: key, paired: nil) == .accept(.notPaired))
        #expect(decide(token: "", key: key, paired: nil) == .accept(.notPaired))
        #expect(decide(token: "nope", key: key, paired: nil) == .refuse(status: 403, reason: "wrong access token"))
    }

    /// Neither key nor secret is 401, as before; an empty key counts as none.
    @Test func nothingIs401() {
        #expect(decide(token: nil, key: nil, paired: nil) == .refuse(status: 401, reason: "missing access token (?token=)"))
        #expect(decide(token: nil, key: "", paired: nil) == .refuse(status: 401, reason: "missing access token (?token=)"))
    }

    /// A paired device still needs a matching Origin and room under the limit.
    @Test func originAndLimitStillApply() {
        #expect(
            decide(token: nil, key: key, paired: "d1", origin: "http://evil.example")
                == .refuse(
                    status: 403, reason: "Origin does not match Host"))
        guard case .refuse(503, _) = decide(token: nil, key: key, paired: "d1", open: 2) else {
            Issue.record("expected 503")
            return
        }
    }

    /// Without pairing (the conformance mode) the token is a bearer token and keys mean nothing.
    @Test func withoutPairingKeysAreIgnored() {
        var bearer = policy
        bearer.pairsDevices = false
        let withKey = UpgradeRequest(path: "/ws", token: nil, deviceKey: key, origin: nil, host: "h")
        #expect(
            bearer.decide(withKey, openConnections: 0, shuttingDown: false, pairedDevice: "d1")
                == .refuse(
                    status: 401, reason: "missing access token (?token=)"))
        let withToken = UpgradeRequest(path: "/ws", token: "s3cret", origin: nil, host: "h")
        #expect(bearer.decide(withToken, openConnections: 0, shuttingDown: false) == .accept(.open))
    }
}
