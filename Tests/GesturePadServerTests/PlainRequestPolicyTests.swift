import Testing

@testable import GesturePadServer

/// What a TLS port answers plain HTTP: redirects keep path and query, secrets are refused.
struct PlainRequestPolicyTests {
    func answer(_ path: String, _ arguments: [String] = [], host: String? = "10.0.0.5:8765", upgrade: Bool = false)
        -> PlainRequestPolicy.Answer
    {
        PlainRequestPolicy.answer(
            path: path, arguments: arguments, host: host, fallbackHost: "localhost:8765", isUpgrade: upgrade)
    }

    @Test func pagesRedirectToTheSamePathAndQuery() {
        #expect(answer("/") == .redirect(location: "https://10.0.0.5:8765/"))
        #expect(
            answer("/watch.html", ["run=a b", "x=1"]) == .redirect(location: "https://10.0.0.5:8765/watch.html?run=a%20b&x=1"))
        #expect(answer("/js/feed.js", ["flag"]) == .redirect(location: "https://10.0.0.5:8765/js/feed.js?flag"))
        // `&` and `=` inside a decoded value are encoded again, so the arguments keep their split.
        #expect(answer("/a", ["q=x&y=z"]) == .redirect(location: "https://10.0.0.5:8765/a?q=x%26y%3Dz"))
        #expect(answer("/é") == .redirect(location: "https://10.0.0.5:8765/%C3%A9"))
        #expect(answer("/", host: "[fe80::1]:8765") == .redirect(location: "https://[fe80::1]:8765/"))
    }

    @Test func aHostThatIsNotPlainFallsBack() {
        for host in ["evil.example/x?", "a b", "user@host", "", String(repeating: "a", count: 300)] {
            #expect(answer("/", host: host) == .redirect(location: "https://localhost:8765/"), "\(host)")
        }
        #expect(answer("/", host: nil) == .redirect(location: "https://localhost:8765/"))
    }

    @Test func secretsAndUpgradesAreRefusedNotRedirected() {
        for path in ["/ws", "/pairing", "/pairing/"] {
            guard case .refuse(403, _) = answer(path, ["token=secret"]) else {
                Issue.record("\(path) must be refused")
                continue
            }
        }
        guard case .refuse(403, let reason) = answer("/anything", upgrade: true) else {
            Issue.record("a plain upgrade must be refused")
            return
        }
        #expect(reason.contains("wss://"))
    }

    @Test func theCAAndTrustPageAreServed() {
        #expect(answer("/ca.crt") == .serve)
        #expect(answer("/trust") == .serve)
    }

    @Test func theRedirectResponseIsTemporaryAndUncached() {
        let text = String(decoding: PlainRequestPolicy.redirectResponse(to: "https://h:1/p?q"), as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 307 Temporary Redirect\r\n"))
        #expect(text.contains("\r\nLocation: https://h:1/p?q\r\n"))
        #expect(text.contains("\r\nCache-Control: no-store\r\n"))
    }
}
