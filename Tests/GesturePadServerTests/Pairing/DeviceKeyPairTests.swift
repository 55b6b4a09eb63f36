import Crypto
import Foundation
import GesturePadSettings
import GestureProtocol
import Testing

@testable import GesturePadServer

/// Device key pairs (docs/protocol.md "Device key pairs"): a phone makes its own key pair as it
/// pairs and the server keeps only the public half; later the phone proves the private half,
/// and the server its identity key, through the exchange alone. What `devices.json` keeps
/// proves nothing, a phone of the shared-key era moves over by proving its old key once, and a
/// swapped identity or device key gives no proof.
@Suite struct DeviceKeyPairTests {
    let secret = "key-pair-test-secret"
    let identity = Curve25519.KeyAgreement.PrivateKey()

    /// The phone's side of one handshake: `device` is its key pair, `pinned` the identity key it
    /// mixes in (the challenge's while it pairs, the pinned one later), `credential` the shared
    /// text it also proves (the secret, an old device key), if any.
    struct Phone {
        var answer: ProofAnswer
        var key: SymmetricKey
        var client: [UInt8]
    }

    func answer(
        _ judge: ProofJudge, with credential: ProofAnswer.Credential, device: Curve25519.KeyAgreement.PrivateKey,
        pinned: [UInt8]?, shared text: String?
    ) throws -> Phone {
        let ephemeral = Curve25519.KeyAgreement.PrivateKey()
        let server = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: judge.exchangePublicKey)
        let identityKey = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: try #require(pinned))
        func agree(_ mine: Curve25519.KeyAgreement.PrivateKey, _ theirs: Curve25519.KeyAgreement.PublicKey) throws
            -> [UInt8]
        { try mine.sharedSecretFromKeyAgreement(with: theirs).withUnsafeBytes { Array($0) } }
        let shared = try agree(ephemeral, server) + agree(device, server) + agree(ephemeral, identityKey)
        let nonce = WireProof.nonce()
        let mine = Array(ephemeral.publicKey.rawRepresentation)
        let devicePublic = Array(device.publicKey.rawRepresentation)
        let keying = WireProof.Keying(
            client: nonce + judge.exchangePublicKey + mine + (try #require(pinned)) + devicePublic, shared: shared)
        let key = try #require(
            text.map { keying.key(WireProof.credentialDigest($0), server: judge.serverNonce) }
                ?? keying.key(server: judge.serverNonce))
        let proof = WireProof.clientProof(key, server: judge.serverNonce, client: keying.client)
        let answer = ProofAnswer(
            credential: credential, nonce: nonce, proof: proof, exchange: mine, devicePublicKey: devicePublic)
        return Phone(answer: answer, key: key, client: keying.client)
    }

    func refusal(_ verdict: Result<ProofJudge.Admitted, ProofRefusal>) -> ProofRefusal? {
        if case .failure(let refusal) = verdict { refusal } else { nil }
    }

    func paired(_ device: Curve25519.KeyAgreement.PrivateKey) -> DeviceList {
        DeviceList(devices: [
            PairedDevice(
                id: "d1", name: "Pixel", state: .paired,
                publicKey: Base64URL.encode(Array(device.publicKey.rawRepresentation)), paired: "t")
        ])
    }

    @Test func aPairingKeepsThePhonesPublicKeyAndNoKey() throws {
        let judge = ProofJudge(identity: identity)
        let device = Curve25519.KeyAgreement.PrivateKey()
        let phone = try answer(judge, with: .secret, device: device, pinned: judge.identityPublicKey, shared: secret)
        let admitted = try judge.judge(phone.answer, secret: secret, devices: DeviceList()).get()
        #expect(admitted.admission == .pairing && admitted.newDeviceKey == nil)
        #expect(admitted.devicePublicKey == Base64URL.encode(Array(device.publicKey.rawRepresentation)))
        #expect(admitted.serverProof == WireProof.serverProof(phone.key, server: judge.serverNonce, client: phone.client))

        // Pairing keeps exactly that, and nothing a proof could be keyed by.
        var desk = PairingDesk(settings: PairingSettings(), list: DeviceList())
        _ = desk.openPairing(at: PairingTime(now: 0, stamp: "t0"), fresh: { FreshDevice(id: "x", key: "x") })
        var fresh = FreshDevice(id: "n1", key: DeviceKey.random(), told: false)
        fresh.publicKey = admitted.devicePublicKey
        let actions = desk.opened(1, as: .pairing, name: "Pixel", at: PairingTime(now: 1, stamp: "t1"), fresh: fresh)
        #expect(actions.first == .greet(1, DeviceGreeting(id: "n1", name: "Pixel", key: nil, kind: .touchpad)))
        let stored = try #require(desk.list.device("n1"))
        #expect(stored.publicKey == admitted.devicePublicKey && stored.keySHA256 == nil)
    }

    @Test func aPairedPhoneProvesItsPrivateKeyAndTheServerItsIdentity() throws {
        let judge = ProofJudge(identity: identity)
        let device = Curve25519.KeyAgreement.PrivateKey()
        let phone = try answer(judge, with: .device("d1"), device: device, pinned: judge.identityPublicKey, shared: nil)
        let admitted = try judge.judge(phone.answer, secret: secret, devices: paired(device)).get()
        #expect(admitted.admission == .device("d1") && admitted.devicePublicKey == nil && !admitted.rekeyed)
        #expect(admitted.serverProof == WireProof.serverProof(phone.key, server: judge.serverNonce, client: phone.client))
    }

    @Test func whatDevicesJSONKeepsProvesNothing() throws {
        let device = Curve25519.KeyAgreement.PrivateKey()
        let list = paired(device)
        let stored = try #require(list.device("d1")?.publicKey)
        // A thief with the file: another private key claiming the stored public key, or the
        // stored text as a shared key of the first handshake (with or without the exchange).
        let judge = ProofJudge(identity: identity)
        var thief = try answer(
            judge, with: .device("d1"), device: Curve25519.KeyAgreement.PrivateKey(), pinned: judge.identityPublicKey,
            shared: nil)
        thief.answer.devicePublicKey = Base64URL.decode(stored)
        #expect(refusal(judge.judge(thief.answer, secret: secret, devices: list)) == .unknown)
        let digest = WireProof.credentialDigest(stored)
        let nonce = WireProof.nonce()
        let first = ProofAnswer(
            credential: .device("d1"), nonce: nonce,
            proof: WireProof.clientProof(digest, server: judge.serverNonce, client: nonce))
        #expect(refusal(judge.judge(first, secret: secret, devices: list)) == .unknown)
    }

    @Test func aServerWithAnotherIdentityGivesNoProofThePhoneTakes() throws {
        // An attacker's server (its own identity) facing a phone that pinned the real one: the
        // phone's proof, keyed with the pinned key, does not verify there, and its server proof
        // is not the phone's.
        let device = Curve25519.KeyAgreement.PrivateKey()
        let real = ProofJudge(identity: identity)
        let fake = ProofJudge(identity: Curve25519.KeyAgreement.PrivateKey())
        let phone = try answer(fake, with: .device("d1"), device: device, pinned: real.identityPublicKey, shared: nil)
        #expect(refusal(fake.judge(phone.answer, secret: secret, devices: paired(device))) == .unknown)
    }

    @Test func aSharedKeyPhoneMovesOverToItsKeyPair() throws {
        let old = DeviceKey.random()
        let list = DeviceList(devices: [
            PairedDevice(id: "d1", name: "Pixel", state: .paired, keySHA256: DeviceKey.digest(old), paired: "t")
        ])
        let judge = ProofJudge(identity: identity)
        let device = Curve25519.KeyAgreement.PrivateKey()
        let phone = try answer(judge, with: .device("d1"), device: device, pinned: judge.identityPublicKey, shared: old)
        let admitted = try judge.judge(phone.answer, secret: secret, devices: list).get()
        let publicKey = Base64URL.encode(Array(device.publicKey.rawRepresentation))
        #expect(admitted.admission == .device("d1") && admitted.rekeyed && admitted.devicePublicKey == publicKey)

        var desk = PairingDesk(settings: PairingSettings(), list: list)
        desk.rekey("d1", to: .publicKey(publicKey))
        let moved = try #require(desk.list.device("d1"))
        #expect(moved.publicKey == publicKey && moved.keySHA256 == nil && moved.name == "Pixel")
        // The old key proves nothing from then on, with or without a key pair.
        let again = ProofJudge(identity: identity)
        let stale = try answer(again, with: .device("d1"), device: device, pinned: again.identityPublicKey, shared: old)
        #expect(refusal(again.judge(stale.answer, secret: secret, devices: desk.list)) == .unknown)
    }

    @Test func aForgottenKeyPairIsToldApart() throws {
        let device = Curve25519.KeyAgreement.PrivateKey()
        var list = paired(device)
        let gone = list.remove("d1")
        let removed = try #require(gone)
        list.rememberForgotten([removed])
        let judge = ProofJudge(identity: identity)
        let phone = try answer(judge, with: .device("d1"), device: device, pinned: judge.identityPublicKey, shared: nil)
        #expect(refusal(judge.judge(phone.answer, secret: secret, devices: list)) == .revoked)
        // Another key pair claiming the forgotten public key is just unknown.
        var thief = try answer(
            judge, with: .device("d1"), device: Curve25519.KeyAgreement.PrivateKey(), pinned: judge.identityPublicKey,
            shared: nil)
        thief.answer.devicePublicKey = phone.answer.devicePublicKey
        #expect(refusal(judge.judge(thief.answer, secret: secret, devices: list)) == .unknown)
    }

    @Test func aKeyPairNeedsTheExchangeAndAnIdentity() throws {
        let device = Curve25519.KeyAgreement.PrivateKey()
        let withIdentity = ProofJudge(identity: identity)
        let phone = try answer(
            withIdentity, with: .secret, device: device, pinned: withIdentity.identityPublicKey, shared: secret)
        // The same answer to a server without an identity key: malformed, not a pairing.
        let without = ProofJudge(serverNonce: withIdentity.serverNonce)
        guard case .failure(.malformed) = without.judge(phone.answer, secret: secret, devices: DeviceList()) else {
            Issue.record("a key pair needs the server's identity")
            return
        }
        // `dk` without `kx` is not read.
        var wire = Array(#"{"type":"auth","with":"secret","nonce":"N","proof":"P","dk":"K"}"#.utf8)
        let nonce = Base64URL.encode(WireProof.nonce())
        wire = Array(
            String(decoding: wire, as: UTF8.self).replacing("\"N\"", with: "\"\(nonce)\"")
                .replacing("\"P\"", with: "\"\(nonce)\"").replacing("\"K\"", with: "\"\(nonce)\"").utf8)
        guard case .failure(.malformed) = ProofAnswer.parse(wire) else {
            Issue.record("dk without kx must be refused")
            return
        }
    }
}
