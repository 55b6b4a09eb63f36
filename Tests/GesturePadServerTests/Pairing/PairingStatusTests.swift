import Testing

@testable import GesturePadServer

@Suite struct PairingStatusTests {
    let policy = HandshakePolicy(token: "s3cret", maxConnections: 2)

    /// `GET /pairing` tells a token's standing by the handshake's own rule: what it answers
    /// `paired`, `pairing` or `open` the handshake accepts; `revoked` and `unknown` it refuses.
    @Test func statusFollowsTheHandshake() {
        let cases: [(String?, KeyStanding, PairingStatus)] = [
            ("K", .paired("d1"), .paired), ("s3cret", .unknown, .pairing), ("K", .forgotten, .revoked),
            ("K", .unknown, .unknown), ("nope", .unknown, .unknown), (nil, .unknown, .unknown), ("", .unknown, .unknown),
        ]
        for (token, standing, expected) in cases {
            #expect(policy.status(of: token, key: standing) == expected)
            let request = UpgradeRequest(path: "/ws", token: token, origin: nil, host: "h")
            let accepted = policy.decide(request, openConnections: 0, shuttingDown: false, key: standing)
            if case .accept = accepted { #expect(!expected.refuses) } else { #expect(expected.refuses) }
        }
    }

    /// The secret while pairing is closed is `closed` (not refused: it is no wrong token).
    @Test func closedPairing() {
        #expect(policy.status(of: "s3cret", key: .unknown, pairingOpen: false) == .closed)
        #expect(!PairingStatus.closed.refuses && PairingStatus.closed.json(confirm: false) == #"{"state":"closed"}"#)
        #expect(policy.status(of: "K", key: .paired("d1"), pairingOpen: false) == .paired)
    }

    /// Without authentication every token is `open`; without pairing the right token is `open`
    /// and a forgotten key means nothing (`unknown`).
    @Test func openServers() {
        let open = HandshakePolicy(token: nil, maxConnections: 2)
        #expect(open.status(of: nil, key: .unknown) == .open && open.status(of: "x", key: .forgotten) == .open)
        var bearer = policy
        bearer.pairsDevices = false
        #expect(bearer.status(of: "s3cret", key: .unknown) == .open)
        #expect(bearer.status(of: "K", key: .forgotten) == .unknown)
    }

    /// The body says the state and nothing else; the secret's says whether pairing is confirmed.
    @Test func json() {
        #expect(PairingStatus.revoked.json(confirm: true) == #"{"state":"revoked"}"#)
        #expect(PairingStatus.paired.json(confirm: true) == #"{"state":"paired"}"#)
        #expect(PairingStatus.pairing.json(confirm: true) == #"{"state":"pairing","confirm":true}"#)
        #expect(PairingStatus.pairing.json(confirm: false) == #"{"state":"pairing","confirm":false}"#)
        #expect(PairingStatus.allCases.filter(\.refuses) == [.revoked, .unknown])
    }
}
