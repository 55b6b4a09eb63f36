import Crypto
import GestureProtocol
import Testing

@testable import GesturePadServer

/// The hub's side of the proof handshake (docs/protocol.md "Proof handshake"): the challenge,
/// the answer handed to the shell, what arrives meanwhile kept, then read once proven; sealed
/// `command` notices; a sealed message that does not open closes with 4413.
@Suite struct HubProofTests {
    static func channels() -> (server: SealedChannel, page: SealedChannel) {
        let keys = WireProof.sessionKeys(WireProof.credentialDigest("s"), server: WireProof.nonce(), client: WireProof.nonce())
        return (
            SealedChannel(toServer: keys.toServer, toPage: keys.toPage),
            SealedChannel(toServer: keys.toPage, toPage: keys.toServer)
        )
    }

    @Test func theAnswerIsJudgedAndTheHelloWaitsForTheVerdict() {
        let harness = HubHarness()
        let id = harness.open()
        harness.handle(.challenge(id, nonce: "NONCE", now: 0))
        #expect(harness.drain(id).frames == [#"{"type":"challenge","protocol":1,"nonce":"NONCE"}"#])
        harness.send(id, #"{"type":"auth"}"#)
        let channels = Self.channels()
        var page = channels.page
        // The page seals its hello with the keys of the proof it just sent.
        harness.receive(id, page.seal(Array(HubHarness.touchpadHello.utf8)))
        #expect(harness.transport.proofs.map { String(decoding: $0.1, as: UTF8.self) } == [#"{"type":"auth"}"#])
        // Nothing answered yet: the hello is kept, not read.
        #expect(harness.drain(id).frames.isEmpty)
        harness.handle(.proven(id, serverProof: "PROOF", seal: channels.server, now: 1))
        harness.handle(.greet(id, DeviceGreeting(id: "d1", name: "Phone")))
        harness.handle(.release(id, now: 1))
        let frames = harness.drain(id).frames
        #expect(frames.count == 2 && frames[0] == #"{"type":"authenticated","proof":"PROOF"}"#)
        // The welcome goes sealed: a listener reads neither the device nor the settings.
        let welcome = frames.count == 2 ? Self.open(frames[1], with: &page) : ""
        #expect(!frames[1].contains("Phone") && frames[1].hasPrefix(#"{"type":"sealed""#))
        #expect(welcome.hasPrefix(#"{"type":"welcome""#) && welcome.contains(#""device":{"id":"d1","name":"Phone"}"#))
    }

    /// The plaintext of a sealed frame from the server, as the page opens it ("" if it does not).
    static func open(_ frame: String, with page: inout SealedChannel) -> String {
        page.open(frame: Array(frame.utf8)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    @Test func withoutAuthenticationNothingIsProved() {
        let harness = HubHarness()
        let id = harness.open()
        harness.handle(.challenge(id, nonce: nil, now: 0))
        #expect(harness.drain(id).frames == [#"{"type":"challenge","protocol":1,"auth":false}"#])
        harness.send(id, HubHarness.touchpadHello)
        #expect(harness.transport.proofs.isEmpty && harness.drain(id).frames[0].hasPrefix(#"{"type":"welcome""#))
    }

    @Test func aSealedMessageThatDoesNotOpenCloses() {
        let harness = HubHarness()
        let id = harness.open()
        harness.handle(.challenge(id, nonce: "N", now: 0))
        harness.send(id, #"{"type":"auth"}"#)
        var (server, page) = Self.channels()
        harness.handle(.proven(id, serverProof: "P", seal: server, now: 0))
        harness.handle(.release(id, now: 0))
        harness.receive(id, page.seal(Array(HubHarness.touchpadHello.utf8)))
        #expect(harness.drain(id).frames.last.map { Self.open($0, with: &page) }?.hasPrefix(#"{"type":"welcome""#) == true)
        // A plain text is refused (the refusal sealed); the same sealed goes through (control is
        // off here: control_off).
        harness.send(id, #"{"type":"text","text":"abc"}"#)
        #expect(harness.drain(id).frames.first.map { Self.open($0, with: &page) }?.contains("seal_required") == true)
        let sealed = page.seal(Array(#"{"type":"text","text":"abc"}"#.utf8))
        harness.receive(id, sealed)
        #expect(harness.drain(id).frames.first.map { Self.open($0, with: &page) }?.contains("control_off") == true)
        // The same frame again is out of its place.
        harness.receive(id, sealed)
        let closing = harness.drain(id)
        #expect(closing.close.map { if case .close(_, .sealBroken, _) = $0 { true } else { false } } == true)
    }
}
