import Crypto
import Foundation
import GesturePadSettings
import GestureProtocol
import Testing

@testable import GesturePadServer

/// A phone paired over plain HTTP keeps its pairing when the server starts speaking TLS
/// (docs/protocol.md "Moving to HTTPS"): its plain page proves its key and is told, sealed, to
/// move with a one-time ticket; the ticket proves the device once over TLS and gives it a new
/// key; what a plain request may still do on a TLS port.
@Suite struct MoveToHTTPSTests {
    let secret = "move-test-secret"

    func answer(_ credential: String, as who: ProofAnswer.Credential, to judge: ProofJudge, client: [UInt8])
        -> ProofAnswer
    {
        let proof = WireProof.clientProof(WireProof.credentialDigest(credential), server: judge.serverNonce, client: client)
        return ProofAnswer(credential: who, nonce: client, proof: proof)
    }

    func list(paired key: String) -> DeviceList {
        DeviceList(devices: [
            PairedDevice(id: "d1", name: "Pixel", state: .paired, keySHA256: DeviceKey.digest(key), paired: "t")
        ])
    }

    @Test func aTicketProvesItsDeviceOnceAndBothSidesDeriveItsNewKey() throws {
        let ticket = DeviceKey.random()
        var tickets = MoveTickets()
        tickets.give(ticket, to: "d1", now: 0)
        let judge = ProofJudge()
        let client = WireProof.nonce()
        let admitted = try judge.judge(
            answer(ticket, as: .ticket("d1"), to: judge, client: client), secret: secret,
            devices: list(paired: DeviceKey.random()), tickets: tickets.digests(now: 1)
        ).get()
        #expect(admitted.admission == .device("d1") && admitted.moved)
        let key = try #require(admitted.newDeviceKey)
        #expect(key == WireProof.deviceKey(secret: WireProof.credentialDigest(ticket), server: judge.serverNonce, client: client))
        // Used, it proves nothing: the next connection with the same ticket is refused.
        tickets.take("d1")
        let next = ProofJudge()
        let again = next.judge(
            answer(ticket, as: .ticket("d1"), to: next, client: WireProof.nonce()), secret: secret,
            devices: list(paired: DeviceKey.random()), tickets: tickets.digests(now: 2))
        #expect(isUnknown(again))
    }

    @Test func aTicketOfAnotherDeviceTooOldOrOfAForgottenDeviceIsRefused() {
        let ticket = DeviceKey.random()
        var tickets = MoveTickets()
        tickets.give(ticket, to: "d1", now: 0)
        let judge = ProofJudge()
        let devices = list(paired: DeviceKey.random())
        func judged(_ id: String, at now: Double, devices: DeviceList) -> Result<ProofJudge.Admitted, ProofRefusal> {
            judge.judge(
                answer(ticket, as: .ticket(id), to: judge, client: WireProof.nonce()), secret: secret, devices: devices,
                tickets: tickets.digests(now: now))
        }
        #expect(isUnknown(judged("d2", at: 1, devices: devices)))
        #expect(isUnknown(judged("d1", at: MoveTickets.lifetime + 1, devices: devices)))
        #expect(isUnknown(judged("d1", at: 1, devices: DeviceList())))
        #expect((try? judged("d1", at: MoveTickets.lifetime - 1, devices: devices).get()) != nil)
        // The device key itself is not a ticket, nor the ticket a device key.
        let asKey = judge.judge(
            answer(ticket, as: .device("d1"), to: judge, client: WireProof.nonce()), secret: secret, devices: devices,
            tickets: tickets.digests(now: 1))
        #expect(isUnknown(asKey))
    }

    @Test func aNewerTicketReplacesTheEarlierOne() {
        var tickets = MoveTickets()
        tickets.give("first", to: "d1", now: 0)
        tickets.give("second", to: "d1", now: 10)
        #expect(tickets.digests(now: 11) == ["d1": DeviceKey.digest("second")])
    }

    @Test func theMovedDeviceKeepsItsEntryWithItsNewKey() {
        let old = DeviceKey.random()
        var desk = PairingDesk(settings: PairingSettings(), list: list(paired: old))
        desk.rekey("d1", to: .key("new-key", told: false))
        #expect(desk.list.devices.count == 1)
        #expect(desk.list.device("d1")?.keySHA256 == DeviceKey.digest("new-key"))
        #expect(desk.list.device("d1")?.name == "Pixel")
        #expect(desk.list.standing(ofKey: old) != .paired("d1"))
    }

    @Test func theAuthAnswerNamesATicket() throws {
        let nonce = Base64URL.encode(WireProof.nonce())
        let text = #"{"type":"auth","with":"ticket","device":"d1","nonce":"\#(nonce)","proof":"\#(nonce)"}"#
        #expect(try ProofAnswer.parse(Array(text.utf8)).get().credential == .ticket("d1"))
        let missing = #"{"type":"auth","with":"ticket","nonce":"\#(nonce)","proof":"\#(nonce)"}"#
        guard case .failure(.malformed) = ProofAnswer.parse(Array(missing.utf8)) else {
            Issue.record("a ticket without its device's id must be malformed")
            return
        }
    }

    @Test func aPlainConnectionIsToldSealedToMoveThenClosed() {
        let harness = HubHarness()
        let id = harness.open()
        harness.handle(.challenge(id, nonce: "N", https: true, now: 0))
        #expect(harness.drain(id).frames == [#"{"type":"challenge","protocol":1,"nonce":"N","https":true}"#])
        harness.send(id, #"{"type":"auth"}"#)
        var (server, page) = HubProofTests.channels()
        harness.receive(id, page.seal(Array(HubHarness.touchpadHello.utf8)))
        harness.handle(.proven(id, serverProof: "P", seal: server, now: 1))
        harness.handle(.move(id, ticket: "TICKET", now: 1))
        let out = harness.drain(id)
        #expect(out.frames.count == 2 && out.frames[0] == #"{"type":"authenticated","proof":"P"}"#)
        // Sealed: a listener does not read the ticket.
        #expect(out.frames.count == 2 && !out.frames[1].contains("TICKET"))
        let move = out.frames.count == 2 ? HubProofTests.open(out.frames[1], with: &page) : ""
        #expect(move.hasPrefix(#"{"type":"move","to":"https","ticket":"TICKET"}"#))
        #expect(out.close.map { if case .close(_, .movedToTLS, _) = $0 { true } else { false } } == true)
        // The hello it sent was never read: no welcome, no session.
        #expect(!out.frames.contains { HubProofTests.open($0, with: &page).contains("welcome") })
    }

    private func isUnknown(_ result: Result<ProofJudge.Admitted, ProofRefusal>) -> Bool {
        if case .failure(.unknown) = result { return true }
        return false
    }
}
