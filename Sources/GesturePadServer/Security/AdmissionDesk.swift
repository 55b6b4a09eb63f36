import Crypto
import GestureProtocol

/// Who gets in, as a state machine (docs/server.md "Admission"): an upgrade is judged, the
/// connection it opens is challenged or handed to pairing, its answer is judged, and a
/// connection that goes before answering is charged. It keeps everything admission needs —
/// the tries each address has left (`RefusalLimiter`), the upgrade just accepted until lws
/// opens its connection, the connections owing their proof (each with its `ProofJudge`), the
/// addresses warned about a credential in clear — and nothing else holds any of it: the
/// bridge (`WebServer`) reads the request's facts, hands them in with the time, and carries
/// out what comes back (an HTTP answer, `HubInput`s, what pairing is to learn). No lws, no
/// clock, no logging; the only randomness is the judges' fresh keys (`makeJudge`).
///
///     upgrade ──refused──▶ HTTP 4xx/5xx (401/403 charge the address; none once it has no tries)
///        │ accepted
///     established ──(no proof asked)──▶ pairing opens it
///        │ ?proof=1
///     challenged ──answer: refused──▶ close 1008/4410/4411 (charged)
///        │      └──closed before answering──▶ (charged)
///        └──answer: proven──▶ sealed; moved to https, or pairing opens it, then released
///
/// A class, like `ConnectionHub`: one desk per server, changed in place by each event.
final class AdmissionDesk {
    /// The request as the bridge read it, and where the server stands.
    struct Upgrade {
        var request: UpgradeRequest
        var address: String
        var userAgent: String?
        /// `?model=` (a page that pairs with the secret in the address names its phone).
        var model: String?
        /// The static-file side's refusal of the path, if any (`plainAnswer`).
        var plainRefusal: (status: Int, reason: String)?
        var openConnections: Int
        var shuttingDown: Bool
        /// Where the request's token stands as a device key.
        var key: KeyStanding
    }

    /// What the bridge answers an upgrade.
    enum UpgradeAnswer: Equatable {
        /// Accepted; `ticket` names this upgrade when lws opens its connection (the bridge keeps
        /// it on the connection and hands it to `established`); `warnClearCredential`: the
        /// credential came in the address over plain HTTP from another machine, and this
        /// address was not warned yet (once per address).
        case accept(ticket: Int, warnClearCredential: Bool)
        case refuse(status: Int, reason: String)
    }

    /// What an established connection does first.
    enum Opening {
        /// This connection carries no ticket of the upgrade just accepted: it was never let in
        /// (never expected; the bridge closes it, 1011, rather than serve it unchecked).
        case unknown
        /// It is sent its challenge (`HubInput.challenge`).
        case challenge(HubInput)
        /// Pairing learns whose it is (`PairingService.opened`).
        case pairing(admission: Admission, name: String, client: String?)
    }

    /// What pairing is told of a connection whose proof was accepted.
    struct ProvenDevice: Equatable {
        var admission: Admission
        var name: String
        var derivedKey: String?
        var publicKey: String?
        var moved: Bool
        var rekeyed: Bool
        var kind: DeviceKind
        var browser: String?
        var address: String
    }

    /// The verdict on a connection's answer to its challenge.
    enum Verdict {
        /// Refused: `HubInput.refuse` (it carries the close code and reason) goes to the hub; `reason` is for the log and its address was charged.
        case refused(HubInput, reason: String, address: String)
        /// Proven: `proven` goes to the hub first (the seal), then `then`.
        case proven(HubInput, then: AfterProof)
    }

    /// What follows a proof accepted.
    enum AfterProof {
        /// It came in plain HTTP to a TLS port: told to move, with a ticket if it is `device`'s.
        case move(device: String?, address: String)
        /// Pairing learns whose it is (nil: nothing to learn — no pairing, or an open admission),
        /// then what it sent meanwhile is read (`HubInput.release`).
        case open(ProvenDevice?)
    }

    /// What the page's answer is judged against, from the bridge's pairing and configuration.
    struct Credentials {
        var secret: String
        var devices: DeviceList?
        /// The move tickets given and not yet used (`MoveTickets.digests`).
        var tickets: [String: String]
        /// The desktop key (taken only from a connection of this computer).
        var desktopKey: String?
        /// Whether the server pairs devices (`PairingService` exists).
        var pairs: Bool
    }

    /// A connection owing its proof.
    private struct Pending {
        var judge: ProofJudge
        var userAgent: String
        var address: String
        /// It came in plain HTTP to a TLS port (`PlainRequestPolicy`): proven, it only moves.
        var moveOnly: Bool
    }

    /// Addresses remembered as warned about a credential in clear: a log line, not a record.
    static let clearCredentialWarningsKept = 256

    private let policy: HandshakePolicy
    /// Authentication is on (a token): `?proof=1` connections are challenged.
    private let authenticates: Bool
    private let makeJudge: () -> ProofJudge
    private var refusals = RefusalLimiter()
    private var accepted: (ticket: Int, admission: Admission, name: String, client: String?)?
    /// The last ticket given (never 0: the bridge keeps a ticket in a pointer-sized slot).
    private var lastTicket = 0
    private var pending: [Int: Pending] = [:]
    private var warned: Set<String> = []

    init(policy: HandshakePolicy, authenticates: Bool, makeJudge: @escaping () -> ProofJudge) {
        self.policy = policy
        self.authenticates = authenticates
        self.makeJudge = makeJudge
    }

    /// How many connections owe their proof (tests, diagnostics).
    var owingProof: Int { pending.count }

    /// `HTTP_CONFIRM_UPGRADE`: the path's own refusal, an address with no tries left (429), or
    /// the policy's decision; a refused credential or a foreign Origin charges the address.
    func upgrade(_ upgrade: Upgrade, now: Double) -> UpgradeAnswer {
        accepted = nil
        if let plain = upgrade.plainRefusal { return .refuse(status: plain.status, reason: plain.reason) }
        guard !refusals.isBlocked(upgrade.address, at: now) else {
            return .refuse(status: 429, reason: "too many refused attempts from this address; try again in a minute")
        }
        let owing = upgrade.request.proof ? pending.values.count { $0.address == upgrade.address } : 0
        let decision = policy.decide(
            upgrade.request, openConnections: upgrade.openConnections, shuttingDown: upgrade.shuttingDown,
            key: upgrade.key, unprovenFromAddress: owing)
        switch decision {
        case .refuse(let status, let reason):
            // A key nobody has is a wrong token like any other: keys cannot be guessed online either.
            if status == 401 || status == 403 { refusals.recordRefusal(upgrade.address, at: now) }
            return .refuse(status: status, reason: reason)
        case .accept(let admission):
            // A proving connection keeps its User-Agent: it names the device if the proof pairs one.
            let name =
                switch admission {
                case .pairing: DeviceName.make(userAgent: upgrade.userAgent, model: upgrade.model)
                case .proving: upgrade.userAgent ?? ""
                case .open, .device: ""
                }
            // `.pairing` here is always `?token=SECRET`: the page's proof pairs later, once proven.
            let client = admission == .pairing ? DeviceName.client(userAgent: upgrade.userAgent) : nil
            lastTicket = lastTicket == Int.max ? 1 : lastTicket + 1
            accepted = (lastTicket, admission, name, client)
            let clear = upgrade.request.token?.isEmpty == false && !upgrade.request.trustedTransport
            return .accept(ticket: lastTicket, warnClearCredential: clear && warnOnce(upgrade.address))
        }
    }

    /// lws opened connection `id` for the upgrade given `ticket` (right after it was accepted;
    /// nil: the connection carries none): a proving one is challenged (`moveOnly`: plain HTTP
    /// to a TLS port), another is handed to pairing.
    func established(_ id: Int, ticket: Int?, address: String, moveOnly: Bool, now: Double) -> Opening {
        guard let upgrade = accepted, upgrade.ticket == ticket else { return .unknown }
        accepted = nil
        guard upgrade.admission == .proving else {
            return .pairing(admission: upgrade.admission, name: upgrade.name, client: upgrade.client)
        }
        guard authenticates else { return .challenge(.challenge(id, nonce: nil, now: now)) }
        let judge = makeJudge()
        pending[id] = Pending(judge: judge, userAgent: upgrade.name, address: address, moveOnly: moveOnly)
        return .challenge(
            .challenge(
                id, nonce: Base64URL.encode(judge.serverNonce), exchange: Base64URL.encode(judge.exchangePublicKey),
                identity: judge.identityPublicKey.map { Base64URL.encode($0) }, https: moveOnly, now: now))
    }

    /// Connection `id`'s answer to its challenge (nil: it owes none — judged already, or never
    /// challenged). `credentials` are read by the bridge as the answer comes.
    func answer(_ id: Int, message: [UInt8], credentials: Credentials, now: Double) -> Verdict? {
        guard let owing = pending.removeValue(forKey: id) else { return nil }
        let verdict = ProofAnswer.parse(message).flatMap { answer in
            owing.judge.judge(
                answer, secret: credentials.secret, devices: credentials.pairs ? credentials.devices : nil,
                tickets: owing.moveOnly ? [:] : credentials.tickets,
                desktopKey: LoopbackAddress.isPeer(owing.address) ? credentials.desktopKey : nil
            ).map { (answer, $0) }
        }
        switch verdict {
        case .failure(let refusal):
            refusals.recordRefusal(owing.address, at: now)
            let (code, reason) = Self.closing(for: refusal)
            return .refused(.refuse(id, code: code, reason: reason), reason: reason, address: owing.address)
        case .success(let (answer, admitted)):
            let seal = SealedChannel(toServer: admitted.toServer, toPage: admitted.toPage)
            let proven = HubInput.proven(id, serverProof: Base64URL.encode(admitted.serverProof), seal: seal, now: now)
            if owing.moveOnly {
                var device: String?
                if case .device(let id) = admitted.admission { device = id }
                return .proven(proven, then: .move(device: device, address: owing.address))
            }
            guard credentials.pairs, admitted.admission != .open else { return .proven(proven, then: .open(nil)) }
            let pairs = admitted.admission == .pairing
            return .proven(
                proven,
                then: .open(
                    ProvenDevice(
                        admission: admitted.admission,
                        name: pairs ? DeviceName.make(userAgent: owing.userAgent, model: answer.model, kind: answer.kind) : "",
                        derivedKey: admitted.newDeviceKey, publicKey: admitted.devicePublicKey, moved: admitted.moved,
                        rekeyed: admitted.rekeyed, kind: answer.kind,
                        browser: pairs
                            ? BrowserDigest.of(userAgent: owing.userAgent, model: answer.model, address: owing.address) : nil,
                        address: owing.address)))
        }
    }

    /// Connection `id` closed. Gone before answering its challenge (a page answers at once):
    /// a try of its address, so that opening and dropping connections costs as a wrong proof does.
    func closed(_ id: Int, now: Double) {
        guard let unanswered = pending.removeValue(forKey: id) else { return }
        refusals.recordRefusal(unanswered.address, at: now)
    }

    /// `GET /pairing?token=…` (docs/protocol.md "Pairing status"): limited like upgrades — no
    /// tries left, 429; a foreign Origin, 403; a credential in clear from another machine, 403;
    /// an answer that refuses the token costs a try.
    func pairingStatus(
        address: String, originMatches: Bool, token: String?, trustedTransport: Bool, key: KeyStanding,
        pairingOpen: Bool, now: Double
    ) -> Result<PairingStatus, HTTPRefusalReason> {
        if refusals.isBlocked(address, at: now) {
            return .failure(HTTPRefusalReason(429, "too many refused attempts from this address; try again in a minute"))
        }
        guard originMatches else {
            refusals.recordRefusal(address, at: now)
            return .failure(HTTPRefusalReason(403, "Origin does not match Host"))
        }
        if token?.isEmpty == false, !trustedTransport {
            refusals.recordRefusal(address, at: now)
            return .failure(
                HTTPRefusalReason(403, "a credential in the address (?token=) is taken only over TLS or from this computer"))
        }
        let status = policy.status(of: token, key: key, pairingOpen: pairingOpen)
        if status.refuses { refusals.recordRefusal(address, at: now) }
        return .success(status)
    }

    /// True the first time `address` is seen (bounded: forgets everyone past the limit).
    private func warnOnce(_ address: String) -> Bool {
        guard !warned.contains(address) else { return false }
        if warned.count >= Self.clearCredentialWarningsKept { warned.removeAll() }
        warned.insert(address)
        return true
    }

    /// The close code and reason of a refused proof.
    static func closing(for refusal: ProofRefusal) -> (CloseCode, String) {
        switch refusal {
        case .malformed(let why): (.policyViolation, why)
        case .unknown: (.proofUnknown, "no credential of this computer gives this proof")
        case .revoked: (.proofRevoked, "this phone was removed on the computer")
        }
    }
}
