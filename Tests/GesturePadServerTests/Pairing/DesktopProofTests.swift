import Crypto
import Foundation
import GesturePadSettings
import GestureProtocol
import Testing

@testable import GesturePadServer

/// The desktop page's live feed proves the desktop key (docs/protocol.md "Proof handshake",
/// `with` "desktop"): connected as the computer's own user, paired as nothing; refused when
/// the key is wrong or the connection is not from this computer (no key handed to the judge).
@Suite struct DesktopProofTests {
    let desktopKey = DeviceKey.random()

    func proved(_ key: String, judge: ProofJudge, presented: String?) -> Result<ProofJudge.Admitted, ProofRefusal> {
        let client = WireProof.nonce()
        let proof = WireProof.clientProof(WireProof.credentialDigest(key), server: judge.serverNonce, client: client)
        return judge.judge(
            ProofAnswer(credential: .desktop, nonce: client, proof: proof), secret: "s", devices: DeviceList(),
            desktopKey: presented)
    }

    @Test func theDesktopKeyConnectsAndPairsNothing() throws {
        let judge = ProofJudge()
        let admitted = try proved(desktopKey, judge: judge, presented: desktopKey).get()
        #expect(admitted.admission == .open && admitted.newDeviceKey == nil && !admitted.moved)
    }

    @Test func aWrongKeyOrAProofFromElsewhereIsRefused() {
        for (key, presented) in [(DeviceKey.random(), desktopKey), (desktopKey, nil), (desktopKey, "")] {
            guard case .failure(.unknown) = proved(key, judge: ProofJudge(), presented: presented) else {
                Issue.record("a desktop proof must be refused here")
                continue
            }
        }
    }

    @Test func theAuthAnswerNamesTheDesktop() throws {
        let nonce = Base64URL.encode(WireProof.nonce())
        let text = #"{"type":"auth","with":"desktop","nonce":"\#(nonce)","proof":"\#(nonce)"}"#
        #expect(try ProofAnswer.parse(Array(text.utf8)).get().credential == .desktop)
    }
}
