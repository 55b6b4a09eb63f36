import GestureProtocol
import Testing

@testable import GesturePadServer

/// Admission as a state machine on a virtual clock (`AdmissionDesk`): upgrades judged and
/// charged, connections challenged or handed to pairing, answers judged, a connection gone
/// before answering charged — the bridge keeps none of it.
struct AdmissionDeskTests {
    static let secret = "admission-Secret0123456789abcdefZ"
    static let phone = "10.0.0.7"
    /// A fixed nonce, so the test answers as a page would.
    static let nonce = [UInt8](repeating: 7, count: WireProof.nonceBytes)

    static func desk(authenticates: Bool = true, pairs: Bool = true) -> AdmissionDesk {
        var policy = HandshakePolicy(token: authenticates ? secret : nil, maxConnections: 16)
        policy.pairsDevices = pairs
        return AdmissionDesk(policy: policy, authenticates: authenticates) { ProofJudge(serverNonce: nonce) }
    }

    static func upgrade(
        token: String? = nil, proof: Bool = false, address: String = phone, origin: String? = nil, trusted: Bool = true
    ) -> AdmissionDesk.Upgrade {
        AdmissionDesk.Upgrade(
            request: UpgradeRequest(
                path: "/ws", token: token, origin: origin, host: "desk:8787", proof: proof, trustedTransport: trusted),
            address: address, userAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/131", model: nil,
            plainRefusal: nil, openConnections: 0, shuttingDown: false, key: .unknown)
    }

    /// The ticket of an accepted upgrade (nil: refused).
    static func ticket(_ answer: AdmissionDesk.UpgradeAnswer) -> Int? {
        if case .accept(let ticket, _) = answer { ticket } else { nil }
    }

    /// Whether an accepted upgrade warns of a credential in clear (nil: refused).
    static func warns(_ answer: AdmissionDesk.UpgradeAnswer) -> Bool? {
        if case .accept(_, let warn) = answer { warn } else { nil }
    }

    /// The page's `auth` for the pairing secret, answering the fixed nonce.
    static func auth(_ credential: String = secret) -> [UInt8] {
        let client = [UInt8](repeating: 9, count: WireProof.nonceBytes)
        let proof = WireProof.clientProof(WireProof.credentialDigest(credential), server: nonce, client: client)
        return Array(
            #"{"type":"auth","with":"secret","nonce":"\#(Base64URL.encode(client))","proof":"\#(Base64URL.encode(proof))"}"#
                .utf8)
    }

    static let credentials = AdmissionDesk.Credentials(
        secret: secret, devices: DeviceList(), tickets: [:], desktopKey: nil, pairs: true)

    /// Ten wrong tokens from one address, each 403; the eleventh is 429 before its token is
    /// looked at, another address is not touched, and a try comes back 6 s later.
    @Test func wrongTokensUseUpTheAddressesTries() {
        let desk = Self.desk()
        for i in 0..<10 {
            #expect(
                desk.upgrade(Self.upgrade(token: "wrong"), now: Double(i)) == .refuse(status: 403, reason: "wrong access token"))
        }
        guard case .refuse(429, _) = desk.upgrade(Self.upgrade(token: Self.secret), now: 20) else {
            Issue.record("an address with no tries left got in")
            return
        }
        #expect(
            Self.warns(desk.upgrade(Self.upgrade(token: Self.secret, address: "10.0.0.8"), now: 20)) == false)
        #expect(Self.warns(desk.upgrade(Self.upgrade(token: Self.secret), now: 6_020)) == false)
    }

    /// A foreign Origin is refused and charged; the path's own refusal passes through uncharged.
    @Test func originAndPath() {
        let desk = Self.desk()
        #expect(
            desk.upgrade(Self.upgrade(proof: true, origin: "https://evil.example"), now: 0)
                == .refuse(status: 403, reason: "Origin does not match Host"))
        var notFound = Self.upgrade(proof: true)
        notFound.plainRefusal = (404, "no such file")
        for i in 0..<20 { #expect(desk.upgrade(notFound, now: Double(i)) == .refuse(status: 404, reason: "no such file")) }
        #expect(Self.warns(desk.upgrade(Self.upgrade(proof: true), now: 30)) == false)
    }

    /// The secret in the address over plain HTTP from another machine is let in (PROTOCOL.md's
    /// `?token=`) and warned about once per address.
    @Test func aCredentialInClearIsWarnedAboutOnce() {
        let desk = Self.desk()
        #expect(Self.warns(desk.upgrade(Self.upgrade(token: Self.secret, trusted: false), now: 0)) == true)
        #expect(Self.warns(desk.upgrade(Self.upgrade(token: Self.secret, trusted: false), now: 1)) == false)
        #expect(
            Self.warns(desk.upgrade(Self.upgrade(token: Self.secret, address: "10.0.0.9", trusted: false), now: 2)) == true)
    }

    /// `?proof=1`: the connection lws opens for that upgrade is challenged (one carrying
    /// another ticket, or none, is not this upgrade's); the right answer is proven and pairs the
    /// phone named by its User-Agent; a second answer is nothing.
    @Test func aProvingConnectionIsChallengedThenProven() throws {
        let desk = Self.desk()
        let first = try #require(Self.ticket(desk.upgrade(Self.upgrade(proof: true), now: 0)))
        guard case .unknown = desk.established(1, ticket: first + 1, address: Self.phone, moveOnly: false, now: 1),
            case .unknown = desk.established(1, ticket: nil, address: Self.phone, moveOnly: false, now: 1)
        else {
            Issue.record("another upgrade's connection took this upgrade")
            return
        }
        let second = try #require(Self.ticket(desk.upgrade(Self.upgrade(proof: true), now: 2)))
        #expect(second != first)
        guard
            case .challenge(.challenge(1, let nonce?, let exchange?, _, false, 3)) =
                desk.established(1, ticket: second, address: Self.phone, moveOnly: false, now: 3)
        else {
            Issue.record("no challenge")
            return
        }
        #expect(nonce == Base64URL.encode(Self.nonce) && !exchange.isEmpty && desk.owingProof == 1)
        guard
            case .proven(.proven(1, _, _, 4), .open(let device?))? =
                desk.answer(1, message: Self.auth(), credentials: Self.credentials, now: 4)
        else {
            Issue.record("the right answer was not proven")
            return
        }
        #expect(device.admission == .pairing && device.name.contains("Pixel 8") && device.derivedKey != nil)
        #expect(device.address == Self.phone && device.browser != nil)
        #expect(desk.owingProof == 0)
        #expect(desk.answer(1, message: Self.auth(), credentials: Self.credentials, now: 5) == nil)
    }

    /// A wrong answer closes with 4410 and charges the address; so does a connection gone
    /// before answering: ten of either and the address is out of tries.
    @Test func wrongAnswersAndSilentConnectionsAreCharged() {
        let desk = Self.desk()
        for id in 1...5 {
            let ticket = Self.ticket(desk.upgrade(Self.upgrade(proof: true), now: Double(id)))
            _ = desk.established(id, ticket: ticket, address: Self.phone, moveOnly: false, now: Double(id))
            guard
                case .refused(.refuse(id, .proofUnknown, _), _, Self.phone)? =
                    desk.answer(id, message: Self.auth("not-the-secret"), credentials: Self.credentials, now: Double(id))
            else {
                Issue.record("a wrong answer was not refused with 4410")
                return
            }
        }
        for id in 6...10 {
            let ticket = Self.ticket(desk.upgrade(Self.upgrade(proof: true), now: Double(id)))
            _ = desk.established(id, ticket: ticket, address: Self.phone, moveOnly: false, now: Double(id))
            desk.closed(id, now: Double(id))
        }
        guard case .refuse(429, _) = desk.upgrade(Self.upgrade(proof: true), now: 11) else {
            Issue.record("ten refusals left the address its tries")
            return
        }
        desk.closed(99, now: 12)  // never challenged: nothing
    }

    /// At most 8 connections of one address owe their proof at once; the ninth upgrade is 429.
    @Test func connectionsOwingProofAreBoundedPerAddress() {
        let desk = Self.desk()
        for id in 1...8 {
            let answer = desk.upgrade(Self.upgrade(proof: true), now: 0)
            #expect(Self.warns(answer) == false)
            _ = desk.established(id, ticket: Self.ticket(answer), address: Self.phone, moveOnly: false, now: 0)
        }
        guard case .refuse(429, let reason) = desk.upgrade(Self.upgrade(proof: true), now: 0) else {
            Issue.record("a ninth unproven connection got in")
            return
        }
        #expect(reason.contains("have not proved themselves"))
        #expect(
            Self.warns(desk.upgrade(Self.upgrade(proof: true, address: "10.0.0.8"), now: 0)) == false
        )
    }

    /// Plain HTTP to a TLS port: proven, it only moves; without authentication there is nothing
    /// to prove (a challenge without a nonce, nothing owed); a secret-holder without pairing is open.
    @Test func moveOnlyNoAuthenticationAndNoPairing() {
        let desk = Self.desk()
        let ticket = Self.ticket(desk.upgrade(Self.upgrade(proof: true), now: 0))
        _ = desk.established(1, ticket: ticket, address: Self.phone, moveOnly: true, now: 0)
        guard
            case .proven(_, .move(nil, Self.phone))? = desk.answer(1, message: Self.auth(), credentials: Self.credentials, now: 1)
        else {
            Issue.record("a move-only connection was not told to move")
            return
        }
        let open = Self.desk(authenticates: false, pairs: false)
        let opened = Self.ticket(open.upgrade(Self.upgrade(proof: true), now: 0))
        guard
            case .challenge(.challenge(1, nil, nil, nil, false, 0)) = open.established(
                1, ticket: opened, address: Self.phone, moveOnly: false, now: 0)
        else {
            Issue.record("an open server challenged")
            return
        }
        #expect(open.owingProof == 0)
        let bearer = Self.desk(pairs: false)
        let bearerTicket = Self.ticket(bearer.upgrade(Self.upgrade(proof: true), now: 0))
        _ = bearer.established(1, ticket: bearerTicket, address: Self.phone, moveOnly: false, now: 0)
        var noPairing = Self.credentials
        noPairing.pairs = false
        guard case .proven(_, .open(nil))? = bearer.answer(1, message: Self.auth(), credentials: noPairing, now: 1) else {
            Issue.record("the secret without pairing did not open")
            return
        }
    }

    /// A connection without `?proof=1` goes straight to pairing, with its name and who it is.
    @Test func aKeyInTheAddressGoesToPairing() {
        let desk = Self.desk()
        let answer = desk.upgrade(Self.upgrade(token: Self.secret), now: 0)
        #expect(Self.warns(answer) == false)
        guard
            case .pairing(.pairing, let name, let client?) = desk.established(
                3, ticket: Self.ticket(answer), address: Self.phone, moveOnly: false, now: 0)
        else {
            Issue.record("not handed to pairing")
            return
        }
        #expect(name.contains("Pixel 8") && !client.isEmpty)
    }

    /// `/pairing?token=`: a foreign Origin and a credential in clear are refused and charged.
    @Test func pairingStatusIsLimitedLikeUpgrades() {
        let desk = Self.desk()
        func ask(_ origin: Bool, _ trusted: Bool, _ now: Double) -> Result<PairingStatus, HTTPRefusalReason> {
            desk.pairingStatus(
                address: Self.phone, originMatches: origin, token: "some-key", trustedTransport: trusted, key: .unknown,
                pairingOpen: true, now: now)
        }
        #expect((try? ask(false, true, 0).get()) == nil)
        #expect((try? ask(true, false, 1).get()) == nil)
        for i in 2..<10 { _ = ask(true, true, Double(i)) }  // `unknown` refuses the token: charged
        guard case .failure(let refusal) = ask(true, true, 11) else {
            Issue.record("no 429")
            return
        }
        #expect(refusal.status == 429)
    }
}
