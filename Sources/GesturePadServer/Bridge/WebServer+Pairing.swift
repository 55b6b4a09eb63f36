import CLibWebSockets
import GesturePadSystem
import GestureProtocol

/// Pairing on the service thread: the upgrade's admission, a connection's device as it opens
/// and closes, and what pairing decided about connections, handed to the hub as its inputs.
extension WebServer {
    /// Who the upgrade `request` of `wsi` is: the policy's decision, with where its token stands
    /// as a device key (in the device list in memory).
    func judge(_ request: UpgradeRequest, of wsi: OpaquePointer, now: Double) -> HandshakeDecision {
        let address = peer(wsi)
        let decision = policy.decide(
            request, openConnections: handles.count, shuttingDown: shuttingDown,
            key: standing(ofKey: request.token),
            unprovenFromAddress: request.proof ? proofs.values.count { $0.address == address } : 0)
        if case .accept(let admission) = decision {
            // A proving connection keeps its User-Agent: it names the device if the proof pairs one.
            let agent = header(wsi, WSI_TOKEN_HTTP_USER_AGENT)
            let name =
                switch admission {
                case .pairing: DeviceName.make(userAgent: agent, model: queryArgument(wsi, name: "model"))
                case .proving: agent ?? ""
                case .open, .device: ""
                }
            // `.pairing` here is always `?token=SECRET`: the page's proof pairs later, in `proven`.
            let client = admission == .pairing ? DeviceName.client(userAgent: agent) : nil
            admitted = (Int(bitPattern: wsi), admission, name, client)
        }
        return decision
    }

    /// Where `token` stands as a device key (`.unknown` for a server that pairs no devices).
    func standing(ofKey token: String?) -> KeyStanding {
        pairing?.standing(ofKey: token) ?? .unknown
    }

    /// `GET /pairing?token=TOKEN` (docs/protocol.md "Pairing status"): where the token stands,
    /// as JSON. Limited like upgrades: an address with no tries left gets 429, a foreign
    /// `Origin` 403, and an answer that refuses the token (`revoked`, `unknown`) costs a try.
    /// Nothing of the token is logged.
    func pairingStatusResponse(_ wsi: OpaquePointer) -> [UInt8] {
        let address = peer(wsi)
        let now = MonotonicClock.nowMilliseconds()
        func refuse(_ status: Int, _ reason: String) -> [UInt8] {
            logger.notice(
                "refused pairing status request: \(reason)", metadata: ["http.status": "\(status)", "http.peer": "\(address)"])
            return HTTPRefusal.response(status: status, reason: reason)
        }
        if refusals.isBlocked(address, at: now) {
            return refuse(429, "too many refused attempts from this address; try again in a minute")
        }
        if let origin = header(wsi, WSI_TOKEN_ORIGIN), !OriginMatcher.matches(origin: origin, host: header(wsi, WSI_TOKEN_HOST)) {
            refusals.recordRefusal(address, at: now)
            return refuse(403, "Origin does not match Host")
        }
        let token = queryArgument(wsi, name: "token")
        if token?.isEmpty == false, !trustsTransport(of: address) {
            refusals.recordRefusal(address, at: now)
            return refuse(403, "a credential in the address (?token=) is taken only over TLS or from this computer")
        }
        let status = policy.status(
            of: token, key: standing(ofKey: token), pairingOpen: pairing?.isOpen(now: now) ?? true)
        if status.refuses { refusals.recordRefusal(address, at: now) }
        logger.info("pairing status asked", metadata: ["pairing.state": "\(status.rawValue)", "http.peer": "\(address)"])
        let body = status.json(confirm: pairing?.settings.confirm ?? false)
        return HTTPResponse.ok(contentType: "application/json", body: Array(body.utf8))
    }

    /// The connection `id` of `wsi` was established: pairing learns whose it is.
    func pairingOpened(_ id: Int, wsi: OpaquePointer, now: Double) {
        guard let admitted, admitted.handle == Int(bitPattern: wsi) else { return }
        self.admitted = nil
        if admitted.admission == .proving {
            let moveOnly = configuration.tls != nil && lws_is_ssl(wsi) == 0
            return challenge(id, userAgent: admitted.name, address: peer(wsi), moveOnly: moveOnly, now: now)
        }
        guard let pairing else { return }
        apply(
            pairing.opened(
                id, as: admitted.admission, name: admitted.name, now: now, client: admitted.client, from: peer(wsi)))
    }

    func pairingClosed(_ id: Int, now: Double) {
        guard let pairing else { return }
        apply(pairing.closed(id, now: now))
    }

    func unpair(_ id: Int) {
        guard let pairing else { return }
        apply(pairing.unpair(id, now: MonotonicClock.nowMilliseconds()))
    }

    /// Between two service passes: `devices.json` changed (SIGUSR1), the state keeper's
    /// outcomes, the notifications' answers, a waiting device out of time or `lastSeen` due.
    func servePairing(devicesChanged: Bool) {
        guard let pairing else { return }
        let now = MonotonicClock.nowMilliseconds()
        if devicesChanged { apply(pairing.reload(now: now)) }
        apply(pairing.takeStateOutcomes(now: now))
        apply(pairing.takeNotifierEvents(now: now))
        if let deadline = pairing.nextDeadline, now >= deadline { apply(pairing.expire(now: now)) }
        // lws's timer may wake the loop a little before the deadline on this clock: arm it again.
        apply([])
    }

    /// Carries out pairing's decisions about connections, then arms the timer of the next
    /// waiting device's deadline.
    func apply(_ decisions: [PairingAction]) {
        let now = MonotonicClock.nowMilliseconds()
        for decision in decisions {
            switch decision {
            case .greet(let id, let device): submit(.greet(id, device))
            case .hold(let id, let device, let wait): submit(.hold(id, device, wait, now: now))
            case .admit(let id, let device): submit(.admit(id, device, now: now))
            case .rename(let ids, let device):
                for id in ids { submit(.rename(id, device, now: now)) }
            case .close(let ids, let code, let reason):
                for id in ids { submit(.refuse(id, code: code, reason: reason)) }
            case .announce, .withdraw: break  // the pairing service's own
            }
        }
        guard let context, !destroying else { return }
        if let deadline = pairing?.nextDeadline {
            // At least 1 ms: lws 4.1 may never fire a timer scheduled 0 µs ahead.
            let delay = max(1, deadline - now)
            lws_sul_schedule(context, 0, pairingTimer, gesturePadWake, lws_usec_t((delay * 1_000).rounded(.up)))
        } else {
            lws_sul_cancel(pairingTimer)
        }
    }
}
