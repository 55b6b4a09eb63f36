import CLibWebSockets
import GesturePadSettings
import GesturePadSystem

/// The desktop page's requests on the service thread (docs/server.md "The desktop page"):
/// `DesktopAccess` decides who may ask, pairing carries out what was asked.
extension WebServer {
    /// The answer to `GET /desktop/…` — JSON, or a refusal.
    func desktopResponse(_ wsi: OpaquePointer, path: String) -> [UInt8] {
        let address = LWSRequest.peer(wsi)
        let decision = DesktopAccess.decide(
            path: path, arguments: LWSRequest.queryArguments(wsi), peer: address, host: LWSRequest.header(wsi, WSI_TOKEN_HOST),
            origin: LWSRequest.header(wsi, WSI_TOKEN_ORIGIN), presented: LWSRequest.customHeader(wsi, DesktopAccess.keyHeader),
            key: configuration.desktopKey ?? "")
        let request: DesktopAccess.Request
        switch decision {
        case .refuse(let status, let reason):
            logger.notice(
                "refused a desktop page request: \(reason)", metadata: ["http.status": "\(status)", "http.peer": "\(address)"])
            return HTTPRefusal.response(status: status, reason: reason)
        case .answer(let asked):
            request = asked
        }
        guard let pairing else { return HTTPRefusal.response(status: 409, reason: "this server pairs no phones (--no-auth)") }
        let now = MonotonicClock.nowMilliseconds()
        switch request {
        case .state:
            break
        case .pairing(let open):
            apply(open ? pairing.openPairing(now: now) : pairing.closePairing(now: now))
        case .rename(let id, let name):
            do {
                apply(try pairing.rename(id, to: name, now: now))
            } catch {
                return HTTPRefusal.response(status: 400, reason: error.description)
            }
        case .forget(let id):
            apply(pairing.forget(id, now: now))
        }
        return HTTPResponse.ok(contentType: "application/json", body: desktopState(pairing, now: now).json)
    }

    private func desktopState(_ pairing: PairingService, now: Double) -> DesktopState {
        let link =
            ServerURLs.urls(
                host: configuration.host, port: port, token: configuration.token, interfaces: InterfaceList.current(),
                secure: configuration.tls != nil
            ).first ?? ""
        let rows = TerminalQRCode.matrix(for: link).map(DesktopState.rows(of:)) ?? []
        let until = pairing.openUntil(now: now)
        return DesktopState(
            pairingOpen: pairing.isOpen(now: now), secondsLeft: until.map { Int((($0 - now) / 1_000).rounded(.up)) },
            confirm: pairing.settings.confirm, link: link, qrRows: rows, devices: pairing.devices.devices,
            connected: pairing.connectedDevices, control: configuration.control.status,
            touchpad: touchpadWatch?.latest(now: now), touchpadApplies: outlets.backend?.name == "touchpad")
    }
}
