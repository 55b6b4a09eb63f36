import GesturePadSystem
import GestureProtocol

/// A connection waiting to prove what it holds: its judge (with the nonce it was sent), and
/// what the upgrade told of it.
struct PendingProof {
    var judge: ProofJudge
    /// The upgrade's `User-Agent`: it names the device if the proof pairs one.
    var userAgent: String
    /// The client's address, charged for a refused proof (`RefusalLimiter`).
    var address: String
    /// It came in plain HTTP to a TLS port: proven, it is only told to move to https
    /// (docs/protocol.md "Moving to HTTPS").
    var moveOnly = false
}

/// The proof handshake on the service thread (docs/protocol.md "Proof handshake"): the
/// challenge as a `?proof=1` connection opens, the verdict on its answer — refused (a close
/// code that says why, a try charged to the address), or proven: the connection gets its
/// sealing keys and pairing learns whose it is.
extension WebServer {
    /// Connection `id` opened with `?proof=1`: it is sent a fresh nonce (or, without
    /// authentication, told there is nothing to prove). `moveOnly`: it came in plain HTTP to a
    /// TLS port (`PlainRequestPolicy` let it in only with authentication on).
    func challenge(_ id: Int, userAgent: String, address: String, moveOnly: Bool, now: Double) {
        guard configuration.token != nil else {
            submit(.challenge(id, nonce: nil, now: now))
            return
        }
        let judge = ProofJudge(identity: identity)
        proofs[id] = PendingProof(judge: judge, userAgent: userAgent, address: address, moveOnly: moveOnly)
        submit(
            .challenge(
                id, nonce: WireProof.base64URL(judge.serverNonce), exchange: WireProof.base64URL(judge.exchangePublicKey),
                identity: judge.identityPublicKey.map(WireProof.base64URL), https: moveOnly, now: now))
    }

    /// The answer of connection `id` to its challenge (the hub's `judgeProof`, carried out in
    /// the middle of a batch: the verdict's inputs reach the hub after it, in order).
    func judgeProof(_ id: Int, answer message: [UInt8]) {
        guard let pending = proofs.removeValue(forKey: id) else { return }
        let now = MonotonicClock.nowMilliseconds()
        let devices = pairing?.devices
        let tickets = pending.moveOnly ? [:] : pairing?.ticketDigests(now: now) ?? [:]
        let verdict = ProofAnswer.parse(message).flatMap { answer in
            pending.judge.judge(
                answer, secret: configuration.token ?? "", devices: devices, tickets: tickets,
                desktopKey: LoopbackAddress.isPeer(pending.address) ? configuration.desktopKey : nil
            ).map { (answer, $0) }
        }
        switch verdict {
        case .failure(let refusal):
            refusals.recordRefusal(pending.address, at: now)
            let (code, reason) = Self.closing(for: refusal)
            logger.notice(
                "refused proof: \(reason)", metadata: ["ws.connection.id": "\(id)", "ws.peer": "\(pending.address)"])
            submit(.refuse(id, code: code, reason: reason))
        case .success(let (answer, admitted)):
            let seal = SealedChannel(toServer: admitted.toServer, toPage: admitted.toPage)
            submit(.proven(id, serverProof: WireProof.base64URL(admitted.serverProof), seal: seal, now: now))
            if pending.moveOnly {
                // Proven, so the page can believe it: the same address over https (a paired
                // device with a ticket that proves it there once); nothing else happens here.
                var ticket: String?
                if case .device(let device) = admitted.admission { ticket = pairing?.moveTicket(for: device, now: now) }
                logger.info(
                    "told a plain-HTTP page to move to HTTPS",
                    metadata: ["ws.connection.id": "\(id)", "ws.peer": "\(pending.address)"])
                submit(.move(id, ticket: ticket, now: now))
                return
            }
            if let pairing, admitted.admission != .open {
                let pairs = admitted.admission == .pairing
                let name = pairs ? DeviceName.make(userAgent: pending.userAgent, model: answer.model, kind: answer.kind) : ""
                let browser =
                    pairs ? BrowserDigest.of(userAgent: pending.userAgent, model: answer.model, address: pending.address) : nil
                apply(
                    pairing.opened(
                        id, as: admitted.admission, name: name, now: now, derivedKey: admitted.newDeviceKey,
                        publicKey: admitted.devicePublicKey, moved: admitted.moved, rekeyed: admitted.rekeyed,
                        kind: answer.kind, browser: browser, from: pending.address))
            }
            submit(.release(id, now: now))
        }
    }

    /// Whether a credential in the address is safe from listeners: TLS, or a loopback peer.
    func trustsTransport(of address: String) -> Bool {
        configuration.tls != nil || LoopbackAddress.isPeer(address)
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
