import Crypto
import Foundation
import GesturePadSettings
import GestureProtocol
import Testing

@testable import GesturePadServer

/// The key exchange of the proof handshake (docs/protocol.md "Key exchange"): a page that sends
/// its ephemeral key gets keys that mix in the shared secret (the credential alone does not
/// give them); a key with no shared secret is malformed; a page without one keeps the first
/// handshake's keys.
@Suite struct KeyExchangeTests {
    let secret = "exchange-test-secret"

    /// The page's side: its answer, and the key it derives for the connection.
    func pageAnswer(to judge: ProofJudge, credential: String) throws -> (ProofAnswer, SymmetricKey, [UInt8]) {
        let mine = Curve25519.KeyAgreement.PrivateKey()
        let theirs = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: judge.exchangePublicKey)
        let shared = try mine.sharedSecretFromKeyAgreement(with: theirs).withUnsafeBytes { Array($0) }
        let nonce = WireProof.nonce()
        let publicKey = Array(mine.publicKey.rawRepresentation)
        let keying = WireProof.Keying(client: nonce + judge.exchangePublicKey + publicKey, shared: shared)
        let key = keying.key(WireProof.credentialDigest(credential), server: judge.serverNonce)
        let proof = WireProof.clientProof(key, server: judge.serverNonce, client: keying.client)
        return (ProofAnswer(credential: .secret, nonce: nonce, proof: proof, exchange: publicKey), key, keying.client)
    }

    @Test func theExchangeKeysTheConnection() throws {
        let judge = ProofJudge()
        let (answer, key, client) = try pageAnswer(to: judge, credential: secret)
        let admitted = try judge.judge(answer, secret: secret, devices: DeviceList()).get()
        #expect(admitted.serverProof == WireProof.serverProof(key, server: judge.serverNonce, client: client))
        #expect(admitted.newDeviceKey == WireProof.deviceKey(secret: key, server: judge.serverNonce, client: client))
        // What the credential alone derives is not the connection's.
        let plain = WireProof.credentialDigest(secret)
        #expect(admitted.newDeviceKey != WireProof.deviceKey(secret: plain, server: judge.serverNonce, client: answer.nonce))
        #expect(admitted.newDeviceKey != WireProof.deviceKey(secret: plain, server: judge.serverNonce, client: client))
    }

    @Test func aProofWithoutTheExchangeItClaimsIsRefused() throws {
        let judge = ProofJudge()
        var (answer, _, _) = try pageAnswer(to: judge, credential: secret)
        // The same proof, with the exchange key swapped by someone on the path.
        answer.exchange = Array(Curve25519.KeyAgreement.PrivateKey().publicKey.rawRepresentation)
        guard case .failure(.unknown) = judge.judge(answer, secret: secret, devices: DeviceList()) else {
            Issue.record("a swapped exchange key must not prove")
            return
        }
    }

    @Test func aKeyWithNoSharedSecretIsMalformed() {
        let judge = ProofJudge()
        let answer = ProofAnswer(
            credential: .secret, nonce: WireProof.nonce(), proof: WireProof.nonce(), exchange: [UInt8](repeating: 0, count: 32))
        guard case .failure(.malformed) = judge.judge(answer, secret: secret, devices: DeviceList()) else {
            Issue.record("the all-zero point gives no shared secret")
            return
        }
    }

    @Test func theChallengeCarriesTheServersKey() {
        var out: [UInt8] = []
        MessageEncoder.appendChallenge(nonce: "N", exchange: "K", https: false, to: &out)
        #expect(String(decoding: out, as: UTF8.self) == #"{"type":"challenge","protocol":1,"nonce":"N","kx":"K"}"#)
    }
}
