import GesturePadSettings
import Testing

@testable import GesturePadServer

@Suite struct HandshakePolicyTests {
    let policy = HandshakePolicy(token: "s3cret", maxConnections: 2)

    func request(
        path: String = "/ws", token: String? = "s3cret", origin: String? = nil, host: String? = "10.0.0.5:8765"
    ) -> UpgradeRequest {
        UpgradeRequest(path: path, token: token, origin: origin, host: host)
    }

    /// The right token on /ws with no Origin (a non-browser client) is accepted.
    @Test func acceptsRightTokenWithoutOrigin() {
        #expect(policy.decide(request(), openConnections: 0, shuttingDown: false) == .accept(.pairing))
    }

    /// A missing token is 401, an empty one too, a wrong one 403.
    @Test func refusesMissingAndWrongTokens() {
        #expect(status(policy.decide(request(token: nil), openConnections: 0, shuttingDown: false)) == 401)
        #expect(status(policy.decide(request(token: ""), openConnections: 0, shuttingDown: false)) == 401)
        #expect(status(policy.decide(request(token: "s3cre"), openConnections: 0, shuttingDown: false)) == 403)
        #expect(status(policy.decide(request(token: "s3cret2"), openConnections: 0, shuttingDown: false)) == 403)
    }

    /// With authentication off any token, or none, passes.
    @Test func noAuthAcceptsAnything() {
        let open = HandshakePolicy(token: nil, maxConnections: 2)
        #expect(open.decide(request(token: nil), openConnections: 0, shuttingDown: false) == .accept(.open))
        #expect(open.decide(request(token: "x"), openConnections: 0, shuttingDown: false) == .accept(.open))
    }

    /// A browser Origin must name the Host; a foreign one is 403 even with the right token.
    @Test func checksOrigin() {
        let same = request(origin: "http://10.0.0.5:8765")
        let foreign = request(origin: "http://evil.example")
        #expect(policy.decide(same, openConnections: 0, shuttingDown: false) == .accept(.pairing))
        #expect(status(policy.decide(foreign, openConnections: 0, shuttingDown: false)) == 403)
    }

    /// Only /ws upgrades; other paths are 404.
    @Test func onlyTheWebSocketPath() {
        #expect(status(policy.decide(request(path: "/"), openConnections: 0, shuttingDown: false)) == 404)
        #expect(status(policy.decide(request(path: "/ws/"), openConnections: 0, shuttingDown: false)) == 404)
    }

    /// The connection limit and shutdown refuse with 503.
    @Test func limitAndShutdownAre503() {
        #expect(policy.decide(request(), openConnections: 1, shuttingDown: false) == .accept(.pairing))
        #expect(status(policy.decide(request(), openConnections: 2, shuttingDown: false)) == 503)
        #expect(status(policy.decide(request(), openConnections: 0, shuttingDown: true)) == 503)
    }

    /// An extension offer lws can read is accepted (and declined: none is negotiated); a longer
    /// one, which lws would drop without an answer, is refused with 431.
    @Test func longExtensionOfferIs431() {
        var offer = request()
        offer.extensionOfferLength = HandshakePolicy.maxExtensionOfferLength
        #expect(policy.decide(offer, openConnections: 0, shuttingDown: false) == .accept(.pairing))
        offer.extensionOfferLength += 1
        #expect(status(policy.decide(offer, openConnections: 0, shuttingDown: false)) == 431)
        #expect(HTTPRefusal.phrase(for: 431) == "Request Header Fields Too Large")
    }

    /// The token is checked before the limit, so a stranger cannot learn that the server is full.
    @Test func authBeforeLimit() {
        #expect(status(policy.decide(request(token: nil), openConnections: 5, shuttingDown: false)) == 401)
    }

    /// Connections of one address that still owe their proof are capped: the next proving
    /// upgrade from there is refused (429), others are not affected.
    @Test func unprovenConnectionsPerAddressAreCapped() {
        let proving = UpgradeRequest(path: "/ws", token: nil, origin: nil, host: "10.0.0.5:8765", proof: true)
        let cap = HandshakePolicy.unprovenPerAddress
        let roomy = HandshakePolicy(token: "s3cret", maxConnections: 32)
        #expect(roomy.decide(proving, openConnections: 0, shuttingDown: false, unprovenFromAddress: cap - 1) == .accept(.proving))
        #expect(status(roomy.decide(proving, openConnections: 0, shuttingDown: false, unprovenFromAddress: cap)) == 429)
        #expect(
            roomy.decide(request(), openConnections: 0, shuttingDown: false, unprovenFromAddress: cap) == .accept(.pairing),
            "a token in the address owes no proof")
    }

    private func status(_ decision: HandshakeDecision) -> Int? {
        if case .refuse(let status, _) = decision { return status }
        return nil
    }
}

@Suite struct OriginMatcherTests {
    /// Same host and port match whatever the scheme and case.
    @Test func sameAuthorityMatches() {
        #expect(OriginMatcher.matches(origin: "http://192.168.1.5:8765", host: "192.168.1.5:8765"))
        #expect(OriginMatcher.matches(origin: "https://192.168.1.5:8765", host: "192.168.1.5:8765"))
        #expect(OriginMatcher.matches(origin: "http://MyHost.lan:8765", host: "myhost.lan:8765"))
        #expect(OriginMatcher.matches(origin: "http://[fd00::2]:8765", host: "[fd00::2]:8765"))
    }

    /// A default port may be written on one side only.
    @Test func defaultPortsAreEquivalent() {
        #expect(OriginMatcher.matches(origin: "http://example.lan", host: "example.lan:80"))
        #expect(OriginMatcher.matches(origin: "https://example.lan:443", host: "example.lan"))
        #expect(!OriginMatcher.matches(origin: "http://example.lan", host: "example.lan:8080"))
    }

    /// Other hosts, other ports, `null`, garbage and a missing Host do not match.
    @Test func mismatchesAreRefused() {
        #expect(!OriginMatcher.matches(origin: "http://evil.example:8765", host: "192.168.1.5:8765"))
        #expect(!OriginMatcher.matches(origin: "http://192.168.1.5:8766", host: "192.168.1.5:8765"))
        #expect(!OriginMatcher.matches(origin: "null", host: "192.168.1.5:8765"))
        #expect(!OriginMatcher.matches(origin: "192.168.1.5:8765", host: "192.168.1.5:8765"))
        #expect(!OriginMatcher.matches(origin: "http://192.168.1.5:8765", host: nil))
        #expect(!OriginMatcher.matches(origin: "http://a@192.168.1.5:8765", host: "192.168.1.5:8765"))
        #expect(!OriginMatcher.matches(origin: "http://192.168.1.5:8765.evil", host: "192.168.1.5:8765"))
    }
}

@Suite struct AccessTokenTests {
    /// Random tokens are 32 hex digits (128 bits) and differ.
    @Test func randomTokensAre128BitHex() {
        let a = AccessToken.random(), b = AccessToken.random()
        #expect(a.count == 32 && b.count == 32)
        #expect(a.allSatisfy { $0.isHexDigit })
        #expect(a != b)
    }

    /// Comparison is exact: prefixes, extensions and case changes fail.
    @Test func matchesExactly() {
        #expect(AccessToken.matches("abc123", expected: "abc123"))
        #expect(!AccessToken.matches("abc12", expected: "abc123"))
        #expect(!AccessToken.matches("abc1234", expected: "abc123"))
        #expect(!AccessToken.matches("ABC123", expected: "abc123"))
        #expect(!AccessToken.matches("", expected: "abc123"))
    }

    /// User tokens must be URL-safe, non-empty and strong enough.
    @Test func validatesUserTokens() {
        #expect(AccessToken.problem(with: "my-Token_1.2~Secret0123456789") == nil)
        #expect(AccessToken.problem(with: "my-Token_1.2~") != nil)
        #expect(AccessToken.problem(with: "") != nil)
        #expect(AccessToken.problem(with: "with space") != nil)
        #expect(AccessToken.problem(with: "a&b") != nil)
        #expect(AccessToken.problem(with: "a#b") != nil)
        #expect(AccessToken.problem(with: String(repeating: "a", count: 257)) != nil)
    }
}
