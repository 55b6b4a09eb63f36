import Testing

@testable import GesturePadServer

/// What a TLS port answers plain HTTP: the page's files are served (a page paired over plain
/// HTTP moves to https by itself, docs/protocol.md "Moving to HTTPS"), a proving upgrade is let
/// in to be told to move, anything else redirects with its path and query, secrets are refused.
struct PlainRequestPolicyTests {
    func answer(
        _ path: String, _ arguments: [String] = [], host: String? = "10.0.0.5:8765", upgrade: Bool = false,
        proves: Bool = true
    ) -> PlainRequestPolicy.Answer {
        PlainRequestPolicy.answer(
            path: path, arguments: arguments, host: host, fallbackHost: "localhost:8765", isUpgrade: upgrade,
            proves: proves)
    }

    @Test func thePagesFilesAreServedSoThatAPairedPageCanMove() {
        for path in ["/", "/index.html", "/watch.html", "/js/link.js", "/style.css", "/icon.svg"] {
            #expect(answer(path) == .serve, "\(path)")
        }
        // With a credential in the address, never: it has crossed in clear already. The redirect
        // does not carry it on.
        #expect(answer("/", ["token=secret"]) == .redirect(location: "https://10.0.0.5:8765/"))
        #expect(answer("/watch.html", ["token=secret", "x=1"]) == .redirect(location: "https://10.0.0.5:8765/watch.html?x=1"))
    }

    @Test func otherPathsRedirectToTheSamePathAndQuery() {
        #expect(answer("/a", ["q=x&y=z"]) == .redirect(location: "https://10.0.0.5:8765/a?q=x%26y%3Dz"))
        #expect(answer("/é") == .redirect(location: "https://10.0.0.5:8765/%C3%A9"))
        #expect(answer("/x", ["run=a b", "x=1"]) == .redirect(location: "https://10.0.0.5:8765/x?run=a%20b&x=1"))
        #expect(answer("/x", host: "[fe80::1]:8765") == .redirect(location: "https://[fe80::1]:8765/x"))
        // `.hidden` files are never served: redirected like any unknown path.
        #expect(answer("/.env") == .redirect(location: "https://10.0.0.5:8765/.env"))
    }

    @Test func aHostThatIsNotPlainFallsBack() {
        for host in ["evil.example/x?", "a b", "user@host", "", String(repeating: "a", count: 300)] {
            #expect(answer("/x", host: host) == .redirect(location: "https://localhost:8765/x"), "\(host)")
        }
        #expect(answer("/x", host: nil) == .redirect(location: "https://localhost:8765/x"))
    }

    @Test func onlyAProvingUpgradeIsLetInAndOnlyWithAuthentication() {
        #expect(answer("/ws", ["proof=1"], upgrade: true) == .serve)
        for (path, arguments, proves) in [
            ("/ws", ["proof=1", "token=secret"], true), ("/ws", [], true), ("/ws", ["proof=1"], false),
            ("/other", ["proof=1"], true),
        ] {
            guard case .refuse(403, _) = answer(path, arguments, upgrade: true, proves: proves) else {
                Issue.record("\(path) \(arguments) proves: \(proves) must be refused")
                continue
            }
        }
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
