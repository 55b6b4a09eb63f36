import CLibWebSockets
import GesturePadSystem
import GestureProtocol

/// Pairing on the service thread: a connection's device as it opens (after `AdmissionDesk`
/// let it in) and closes, the pairing status answer, and what pairing decided about
/// connections, handed to the hub as its inputs.
extension WebServer {
    /// `GET /pairing?token=TOKEN` (docs/protocol.md "Pairing status"): where the token stands,
    /// as JSON. Limited like upgrades: an address with no tries left gets 429, a foreign
    /// `Origin` 403, and an answer that refuses the token (`revoked`, `unknown`) costs a try.
    /// Nothing of the token is logged.
    func pairingStatusResponse(_ wsi: OpaquePointer) -> [UInt8] {
        let address = LWSRequest.peer(wsi)
        let now = MonotonicClock.nowMilliseconds()
        let token = LWSRequest.queryArgument(wsi, name: "token")
        let answer = admission.pairingStatus(
            address: address,
            originMatches: LWSRequest.header(wsi, WSI_TOKEN_ORIGIN).map {
                OriginMatcher.matches(origin: $0, host: LWSRequest.header(wsi, WSI_TOKEN_HOST))
            }
                ?? true,
            token: token, trustedTransport: trustsTransport(of: address),
            key: pairing?.standing(ofKey: token) ?? .unknown, pairingOpen: pairing?.isOpen(now: now) ?? true, now: now)
        switch answer {
        case .failure(let refusal):
            logger.notice(
                "refused pairing status request: \(refusal.reason)",
                metadata: ["http.status": "\(refusal.status)", "http.peer": "\(address)"])
            return HTTPRefusal.response(status: refusal.status, reason: refusal.reason)
        case .success(let status):
            logger.info("pairing status asked", metadata: ["pairing.state": "\(status.rawValue)", "http.peer": "\(address)"])
            let body = status.json(confirm: pairing?.settings.confirm ?? false)
            return HTTPResponse.ok(contentType: "application/json", body: Array(body.utf8))
        }
    }

    /// The connection `id` of `wsi` was established: it is challenged, or pairing learns whose it is.
    func pairingOpened(_ id: Int, wsi: OpaquePointer, now: Double) {
        let moveOnly = configuration.tls != nil && lws_is_ssl(wsi) == 0
        switch admission.established(
            id, ticket: lws_get_opaque_user_data(wsi).map { Int(bitPattern: $0) }, address: LWSRequest.peer(wsi),
            moveOnly: moveOnly, now: now)
        {
        case .none:
            break
        case .challenge(let input):
            submit(input)
        case .pairing(let admitted, let name, let client):
            guard let pairing else { return }
            apply(pairing.opened(id, as: admitted, name: name, now: now, client: client, from: LWSRequest.peer(wsi)))
        }
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
        guard let context, !connections.destroying else { return }
        if let deadline = pairing?.nextDeadline {
            // At least 1 ms: lws 4.1 may never fire a timer scheduled 0 µs ahead.
            let delay = max(1, deadline - now)
            lws_sul_schedule(context, 0, pairingTimer, gesturePadWake, lws_usec_t((delay * 1_000).rounded(.up)))
        } else {
            lws_sul_cancel(pairingTimer)
        }
    }
}
