import Testing

@testable import GesturePadServer

/// Who the desktop page's requests answer (docs/server.md "The desktop page"): this computer's
/// user only — a loopback peer, a loopback `Host`, no foreign `Origin`, the desktop key.
@Suite struct DesktopAccessTests {
    let key = String(repeating: "k", count: 43)

    func decide(
        _ path: String, _ arguments: [String] = [], peer: String = "127.0.0.1", host: String? = "127.0.0.1:8765",
        origin: String? = nil, presented: String? = nil
    ) -> DesktopAccess.Decision {
        DesktopAccess.decide(
            path: path, arguments: arguments, peer: peer, host: host, origin: origin, presented: presented ?? key, key: key)
    }

    @Test func theKeyFromThisComputerIsLetIn() {
        #expect(decide("/desktop/state") == .answer(.state))
        #expect(decide("/desktop/pairing", ["open=1"]) == .answer(.pairing(open: true)))
        #expect(decide("/desktop/pairing", ["open=0"], host: "localhost:8765") == .answer(.pairing(open: false)))
        #expect(
            decide("/desktop/rename", ["id=a1", "name=Kitchen"], peer: "::1", host: "[::1]:8765")
                == .answer(.rename(id: "a1", name: "Kitchen")))
        #expect(decide("/desktop/forget", ["id=a1"], origin: "http://127.0.0.1:8765") == .answer(.forget(id: "a1")))
    }

    @Test func everythingElseIsRefused() {
        func status(_ decision: DesktopAccess.Decision) -> Int? {
            if case .refuse(let status, _) = decision { status } else { nil }
        }
        #expect(status(decide("/desktop/state", peer: "192.168.1.20")) == 403)
        #expect(status(decide("/desktop/state", host: "evil.example")) == 403)
        #expect(status(decide("/desktop/state", host: "127.0.0.1.evil.example")) == 403)
        #expect(status(decide("/desktop/state", host: nil)) == 403)
        #expect(status(decide("/desktop/state", origin: "http://evil.example")) == 403)
        #expect(status(decide("/desktop/state", presented: "")) == 401)
        #expect(status(decide("/desktop/state", presented: String(repeating: "x", count: 43))) == 401)
        #expect(status(decide("/desktop/pairing", ["open=yes"])) == 400)
        #expect(status(decide("/desktop/rename", ["id=a1"])) == 400)
        #expect(status(decide("/desktop/other")) == 404)
        #expect(
            status(
                DesktopAccess.decide(
                    path: "/desktop/state", arguments: [], peer: "127.0.0.1", host: "127.0.0.1", origin: nil, presented: "",
                    key: ""))
                == 401)
    }
}
