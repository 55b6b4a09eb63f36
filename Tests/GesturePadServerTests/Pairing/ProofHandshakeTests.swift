import Crypto
import Foundation
import GestureControl
import GestureEngine
import GesturePadSettings
import GestureProtocol
import Testing

@testable import GesturePadServer

/// The proof handshake and sealing (docs/protocol.md "Proof handshake", "Sealed messages"):
/// what the server accepts, refuses and derives, computed as a page would from its side.
@Suite struct ProofHandshakeTests {
    let secret = "proof-test-secret"

    /// The page's answer for `credential` to `judge`'s nonce, with `client` as its nonce.
    func answer(
        _ credential: String, as who: ProofAnswer.Credential, to judge: ProofJudge, client: [UInt8] = WireProof.nonce()
    ) -> ProofAnswer {
        let proof = WireProof.clientProof(WireProof.credentialDigest(credential), server: judge.serverNonce, client: client)
        return ProofAnswer(credential: who, nonce: client, proof: proof)
    }

    func list(paired key: String, id: String = "d1", forgotten: [String] = []) -> DeviceList {
        DeviceList(
            devices: [PairedDevice(id: id, name: "Pixel", state: .paired, keySHA256: DeviceKey.digest(key), paired: "t")],
            forgottenKeys: forgotten.map(DeviceKey.digest))
    }

    @Test func theSecretPairsAndBothSidesDeriveOneKey() throws {
        let judge = ProofJudge()
        let client = WireProof.nonce()
        let result = judge.judge(
            answer(secret, as: .secret, to: judge, client: client), secret: secret, devices: DeviceList())
        let admitted = try result.get()
        #expect(admitted.admission == .pairing)
        let key = try #require(admitted.newDeviceKey)
        #expect(DeviceKey.isWellFormed(key))
        // The page derives the same from what it holds and the nonces it saw.
        #expect(key == WireProof.deviceKey(secret: WireProof.credentialDigest(secret), server: judge.serverNonce, client: client))
        // Another connection's nonces give another key.
        #expect(key != WireProof.deviceKey(secret: WireProof.credentialDigest(secret), server: WireProof.nonce(), client: client))
        #expect(!key.contains(secret))
    }

    @Test func aReplayedAnswerIsRefused() {
        let first = ProofJudge()
        let recorded = answer(secret, as: .secret, to: first)
        #expect((try? first.judge(recorded, secret: secret, devices: DeviceList()).get()) != nil)
        // The same bytes to the next connection, whose nonce differs.
        let second = ProofJudge()
        #expect(second.serverNonce != first.serverNonce)
        guard case .failure(.unknown) = second.judge(recorded, secret: secret, devices: DeviceList()) else {
            Issue.record("a replayed answer was accepted")
            return
        }
    }

    @Test func aWrongSecretAndNoPairing() {
        let judge = ProofJudge()
        let wrong = answer("not-the-secret", as: .secret, to: judge)
        #expect(isRefusal(judge.judge(wrong, secret: secret, devices: DeviceList()), .unknown))
        let right = answer(secret, as: .secret, to: judge)
        // Without pairing (`--test-echo`) the secret is a bearer credential: open.
        #expect((try? judge.judge(right, secret: secret, devices: nil).get())?.admission == .open)
    }

    @Test func aDeviceProvesItsKeyByTheStoredDigest() throws {
        let key = DeviceKey.random()
        let judge = ProofJudge()
        let admitted = try judge.judge(
            answer(key, as: .device("d1"), to: judge), secret: secret, devices: list(paired: key)
        ).get()
        #expect(admitted.admission == .device("d1") && admitted.newDeviceKey == nil)
        // Another device's id, another key, a forgotten key.
        #expect(
            isRefusal(
                judge.judge(
                    answer(key, as: .device("d2"), to: judge), secret: secret, devices: list(paired: key)),
                .unknown))
        #expect(
            isRefusal(
                judge.judge(
                    answer(DeviceKey.random(), as: .device("d1"), to: judge), secret: secret, devices: list(paired: key)),
                .unknown))
        let gone = DeviceKey.random()
        let forgotten = list(paired: key, forgotten: [gone])
        #expect(
            isRefusal(
                judge.judge(answer(gone, as: .device("d9"), to: judge), secret: secret, devices: forgotten),
                .revoked))
    }

    @Test func answersThatAreNotOne() {
        let nonce = Base64URL.encode(WireProof.nonce())
        for text in [
            #"{"type":"hello","protocol":1,"role":"touchpad","width":1,"height":1}"#,
            #"{"type":"auth","with":"secret","nonce":"abc","proof":"\#(nonce)"}"#,
            #"{"type":"auth","with":"device","nonce":"\#(nonce)","proof":"\#(nonce)"}"#,
            #"{"type":"auth","with":"key","nonce":"\#(nonce)","proof":"\#(nonce)"}"#, "not json",
        ] {
            guard case .failure(.malformed) = ProofAnswer.parse(Array(text.utf8)) else {
                Issue.record("accepted: \(text)")
                continue
            }
        }
        let good = #"{"type":"auth","with":"device","device":"d1","nonce":"\#(nonce)","proof":"\#(nonce)"}"#
        #expect((try? ProofAnswer.parse(Array(good.utf8)).get())?.credential == .device("d1"))
    }

    @Test func sealedMessagesOpenOnceInOrderAndUnaltered() throws {
        let keys = WireProof.sessionKeys(WireProof.credentialDigest(secret), server: WireProof.nonce(), client: WireProof.nonce())
        var server = SealedChannel(toServer: keys.toServer, toPage: keys.toPage)
        // The page's side: its "to page" is the server's "to server".
        var page = SealedChannel(toServer: keys.toPage, toPage: keys.toServer)
        let typed = Array(#"{"type":"text","text":"correct horse battery staple"}"#.utf8)
        let first = page.seal(typed)
        let second = page.seal(Array(#"{"type":"key","key":"Enter"}"#.utf8))
        #expect(SealedChannel.isSealed(first) && !String(decoding: first, as: UTF8.self).contains("horse"))
        // Out of order: the second does not open first (and a failure moves no count).
        #expect(server.open(frame: second) == nil)
        #expect(server.open(frame: first).map(Self.unpadded) == typed)
        // Replayed: the first again is the wrong number now.
        #expect(server.open(frame: first) == nil)
        // Altered: one bit of the box.
        var altered = second
        let at = SealedChannel.prefix.count + 3
        altered[at] = altered[at] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(server.open(frame: altered) == nil)
        #expect(server.open(frame: second) != nil)
        // A frame of the other direction (the server's own first, reflected) does not open,
        // though its number is right for a fresh channel.
        var fresh = SealedChannel(toServer: keys.toServer, toPage: keys.toPage)
        var reflecting = SealedChannel(toServer: keys.toServer, toPage: keys.toPage)
        #expect(fresh.open(frame: reflecting.seal(typed)) == nil)
        var pageAgain = SealedChannel(toServer: keys.toPage, toPage: keys.toServer)
        #expect(fresh.open(frame: pageAgain.seal(typed)).map(Self.unpadded) == typed)
    }

    /// A plaintext without its padding (the spaces after the JSON).
    static func unpadded(_ plain: [UInt8]) -> [UInt8] {
        Array(plain[..<(plain.lastIndex { $0 != UInt8(ascii: " ") }.map { $0 + 1 } ?? 0)])
    }

    /// A sealed frame's length tells only its size class: "a" and "correct horse" typed seal to
    /// frames of one length; the classes are 64 … 1,024 bytes, then multiples of 1,024.
    @Test func sealedFramesArePaddedToSizeClasses() {
        let keys = WireProof.sessionKeys(WireProof.credentialDigest(secret), server: WireProof.nonce(), client: WireProof.nonce())
        var page = SealedChannel(toServer: keys.toPage, toPage: keys.toServer)
        var server = SealedChannel(toServer: keys.toServer, toPage: keys.toPage)
        let short = page.seal(Array(#"{"type":"text","text":"a"}"#.utf8))
        let long = page.seal(Array(#"{"type":"text","text":"correct horse"}"#.utf8))
        #expect(short.count == long.count)
        #expect(server.open(frame: short).map(Self.unpadded) == Array(#"{"type":"text","text":"a"}"#.utf8))
        #expect(server.open(frame: short)?.count == nil)  // its number is spent
        #expect(server.open(frame: long)?.count == 64)
        #expect([1, 64, 65, 128, 129, 700, 1_024, 1_025, 5_000].map(SealedChannel.paddedLength)
                == [64, 64, 128, 128, 256, 1_024, 1_024, 2_048, 5_120])
    }

    /// PROTOCOL.md "Connecting" takes `?token=` from anywhere (the server only warns when it
    /// crossed in clear) — but over plain HTTP from another machine it pairs no device, so no
    /// device key crosses in clear; `?proof=1` carries none.
    @Test func theTokenInTheAddressAsTheContractSays() {
        let policy = HandshakePolicy(token: secret, maxConnections: 4)
        let lan = UpgradeRequest(path: "/ws", token: secret, origin: nil, host: nil, trustedTransport: false)
        #expect(policy.decide(lan, openConnections: 0, shuttingDown: false) == .accept(.open))
        let wrong = UpgradeRequest(path: "/ws", token: "wrong", origin: nil, host: nil, trustedTransport: false)
        guard case .refuse(403, _) = policy.decide(wrong, openConnections: 0, shuttingDown: false) else {
            Issue.record("a wrong token was taken")
            return
        }
        let local = UpgradeRequest(path: "/ws", token: secret, origin: nil, host: nil, trustedTransport: true)
        #expect(policy.decide(local, openConnections: 0, shuttingDown: false) == .accept(.pairing))
        let proving = UpgradeRequest(path: "/ws", token: nil, origin: nil, host: nil, proof: true, trustedTransport: false)
        #expect(policy.decide(proving, openConnections: 0, shuttingDown: false) == .accept(.proving))
    }

    func isRefusal(_ result: Result<ProofJudge.Admitted, ProofRefusal>, _ expected: ProofRefusal) -> Bool {
        if case .failure(let refusal) = result { refusal == expected } else { false }
    }
}

/// The session's side of sealing: on a proven connection every plain frame is refused whole —
/// a `text` types nothing, a `down` / `up` clicks nothing, a plain `hello` opens no session.
@Suite struct SealRequiredTests {
    @Test func everyPlainFrameIsRefusedOnAProvenConnection() {
        var session = ProtocolSession(
            sessionID: "1", config: GestureConfig(), limits: ProtocolLimits(),
            control: ControlContext(status: .active(backend: "x11"), capabilities: .init(characters: .anyUnicode)))
        session.requireSealedInput()
        var output = SessionOutput()
        let hello = Array(#"{"type":"hello","protocol":1,"role":"touchpad","width":300,"height":600}"#.utf8)
        session.receive(text: hello.span, arrival: 0, into: &output)
        #expect(session.role == nil && String(decoding: output.frames.bytes, as: UTF8.self).contains("seal_required"))
        output.removeAll()
        session.receive(text: hello.span, arrival: 0, sealed: true, into: &output)
        #expect(session.role == .touchpad)
        output.removeAll()
        let text = Array(#"{"type":"text","text":"injected"}"#.utf8)
        session.receive(text: text.span, arrival: 1, into: &output)
        #expect(output.actions.isEmpty && output.notes.isEmpty)
        #expect(String(decoding: output.frames.bytes, as: UTF8.self).contains("seal_required"))
        output.removeAll()
        let click = Array(
            (#"[{"type":"down","id":1,"x":10,"y":10,"t":5,"pointerType":"mouse","buttons":1},"#
                + #"{"type":"up","id":1,"x":10,"y":10,"t":6,"pointerType":"mouse"}]"#).utf8)
        session.receive(text: click.span, arrival: 5, into: &output)
        session.fire(now: 1_000, into: &output)
        #expect(output.actions.isEmpty && output.events.isEmpty)
        output.removeAll()
        session.receive(text: text.span, arrival: 2, sealed: true, into: &output)
        #expect(!output.notes.isEmpty)
    }
}
