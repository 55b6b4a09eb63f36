import CLibWebSockets
import GesturePadSettings
import GesturePadSystem
import GestureProtocol
import Glibc
import Logging

/// The lws events of a connection, carried out on the service thread.
extension WebServer {
    /// `HTTP_CONFIRM_UPGRADE`: path, token (the pairing secret or a paired device's key),
    /// Origin and the connection limit decide; a refusal is a complete HTTP/1.1 response
    /// (`HTTPRefusal`) written before any WebSocket frame.
    func confirmUpgrade(_ wsi: OpaquePointer) -> Int32 {
        let address = LWSRequest.peer(wsi)
        let request = UpgradeRequest(
            path: LWSRequest.header(wsi, WSI_TOKEN_GET_URI) ?? "",
            token: LWSRequest.queryArgument(wsi, name: "token"),
            origin: LWSRequest.header(wsi, WSI_TOKEN_ORIGIN),
            host: LWSRequest.header(wsi, WSI_TOKEN_HOST),
            extensionOfferLength: Int(lws_hdr_total_length(wsi, WSI_TOKEN_EXTENSIONS)),
            proof: LWSRequest.queryArgument(wsi, name: "proof") == "1",
            trustedTransport: trustsTransport(of: address))
        var plainRefusal: (status: Int, reason: String)?
        if let plain = plainAnswer(wsi, path: request.path, isUpgrade: true), case .refuse(let status, let reason) = plain {
            plainRefusal = (status, reason)
        }
        let upgrade = AdmissionDesk.Upgrade(
            request: request, address: address,
            userAgent: LWSRequest.header(wsi, WSI_TOKEN_HTTP_USER_AGENT), model: LWSRequest.queryArgument(wsi, name: "model"),
            plainRefusal: plainRefusal, openConnections: connections.count, shuttingDown: shuttingDown,
            key: pairing?.standing(ofKey: request.token) ?? .unknown)
        switch admission.upgrade(upgrade, now: MonotonicClock.nowMilliseconds()) {
        case .accept(let ticket, let warn):
            // The upgrade's ticket goes with its connection: `established` hands it back.
            lws_set_opaque_user_data(wsi, UnsafeMutableRawPointer(bitPattern: ticket))
            if warn { warnClearCredential(from: address) }
            return 0
        case .refuse(let status, let reason):
            logger.notice(
                "refused WebSocket upgrade: \(reason)",
                metadata: ["http.status": "\(status)", "http.peer": "\(address)"])
            // Raw bytes through lws_write: lws's own helper would answer "HTTP/1.0" here.
            var response = [UInt8](repeating: 0, count: Int(CLWS_PRE))
            response.append(contentsOf: HTTPRefusal.response(status: status, reason: reason))
            let length = response.count - Int(CLWS_PRE)
            let written = response.withUnsafeMutableBytes { raw -> Int32 in
                guard let base = raw.baseAddress else { return -1 }
                return lws_write(
                    wsi, base.advanced(by: Int(CLWS_PRE)).assumingMemoryBound(to: UInt8.self), length,
                    LWS_WRITE_HTTP_FINAL)
            }
            return written < 0 ? -1 : 1
        }
    }

    /// `FILTER_HTTP_CONNECTION`: a plain HTTP request, before the mount. `/ca.crt`, `/trust`
    /// and `GET /pairing` are answered here; paths the mount must not serve get a 404 here
    /// (returning nonzero then closes the connection).
    func filterHTTP(_ wsi: OpaquePointer, input: UnsafeMutableRawPointer?, length: Int) -> Int32 {
        guard let input, length > 0 else { return 0 }
        let path = String(decoding: UnsafeRawBufferPointer(start: input, count: length), as: UTF8.self)
        // The desktop page's requests: this computer's user only (loopback, so in clear even on
        // a TLS port — nothing crosses a network).
        if path.hasPrefix(DesktopAccess.prefix) {
            return writeWhole(wsi, desktopResponse(wsi, path: path))
        }
        switch plainAnswer(wsi, path: path, isUpgrade: false) {
        case nil, .serve?:
            break
        case .redirect(let location)?:
            return writeWhole(wsi, PlainRequestPolicy.redirectResponse(to: location))
        case .refuse(let status, let reason)?:
            logger.notice(
                "refused a plain HTTP request on the TLS port: \(reason)",
                metadata: ["http.status": "\(status)", "http.peer": "\(LWSRequest.peer(wsi))", "http.path": "\(path)"])
            return writeWhole(wsi, HTTPRefusal.response(status: status, reason: reason))
        }
        if let response = trustResponse(for: path) {
            return writeWhole(wsi, response)
        }
        if path == "/pairing", lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0 {
            return writeWhole(wsi, pairingStatusResponse(wsi))
        }
        if StaticFilePolicy.isServable(path) { return 0 }
        _ = lws_return_http_status(wsi, 404, nil)
        return 1
    }

    /// What a TLS port answers a request that came in plain HTTP; `nil` on a TLS connection or
    /// a plain server.
    private func plainAnswer(_ wsi: OpaquePointer, path: String, isUpgrade: Bool) -> PlainRequestPolicy.Answer? {
        guard configuration.tls != nil, lws_is_ssl(wsi) == 0 else { return nil }
        return PlainRequestPolicy.answer(
            path: path, arguments: LWSRequest.queryArguments(wsi), host: LWSRequest.header(wsi, WSI_TOKEN_HOST),
            fallbackHost: fallbackAuthority(),
            isUpgrade: isUpgrade, proves: configuration.token != nil)
    }

    /// `/ca.crt` and `/trust` (with `--tls`): the local CA certificate and how to trust it.
    private func trustResponse(for path: String) -> [UInt8]? {
        guard let tls = configuration.tls else { return nil }
        switch path {
        case "/ca.crt":
            guard let authority = tls.authority else { return HTTPRefusal.response(status: 404, reason: "no local CA") }
            return HTTPResponse.ok(contentType: "application/x-x509-ca-cert", body: Array(authority.caPEM.utf8))
        case "/trust", "/trust/":
            let page = TrustPage.html(fingerprint: tls.authority?.fingerprint)
            return HTTPResponse.ok(contentType: "text/html; charset=utf-8", body: Array(page.utf8))
        default:
            return nil
        }
    }

    /// Writes a complete HTTP response and ends the request (1: lws closes after the write).
    private func writeWhole(_ wsi: OpaquePointer, _ response: [UInt8]) -> Int32 {
        var buffer = [UInt8](repeating: 0, count: Int(CLWS_PRE))
        buffer.append(contentsOf: response)
        let length = response.count
        let written = buffer.withUnsafeMutableBytes { raw -> Int32 in
            guard let base = raw.baseAddress else { return -1 }
            return lws_write(
                wsi, base.advanced(by: Int(CLWS_PRE)).assumingMemoryBound(to: UInt8.self), length, LWS_WRITE_HTTP_FINAL)
        }
        return written < 0 ? -1 : 1
    }

    func established(_ wsi: OpaquePointer, slot: UnsafeMutablePointer<gp_connection_slot>?) -> Int32 {
        guard let slot else { return -1 }
        let id = connections.open(wsi, slot: slot)
        submit(.opened(id, now: MonotonicClock.nowMilliseconds()), for: id)
        logger.info(
            "connection opened", metadata: ["ws.connection.id": "\(id)", "ws.peer": "\(LWSRequest.peer(wsi))"])
        pairingOpened(id, wsi: wsi, now: MonotonicClock.nowMilliseconds())
        return 0
    }

    func received(
        _ wsi: OpaquePointer, slot: UnsafeMutablePointer<gp_connection_slot>?,
        input: UnsafeMutableRawPointer?, length: Int
    ) -> Int32 {
        guard let slot, let id = LWSConnections.id(of: slot) else { return 0 }
        let now = MonotonicClock.nowMilliseconds()
        confirmAlive(wsi, slot: slot, now: now)
        // The hub takes a slice: the chunk is copied into a reused buffer first.
        let chunk = HubInput.received(
            id, connections.chunk(input, length: length), isFinal: lws_is_final_fragment(wsi) != 0,
            isBinary: lws_frame_is_binary(wsi) != 0,
            now: now)
        submit(chunk, for: id)
        // Never -1 here, even for a refusal: lws would drop the rest of the bytes it has read,
        // its frame parser would lose step with the stream, and the next read (payload taken
        // for headers) would make it drop the socket before the Close frame went out — what
        // happened to an oversize message sent as many small fragments. The hub closes from
        // the writable callback instead.
        return 0
    }

    /// Data from the peer shows it is alive: lws's keep-alive (`retry_and_idle_policy`) only
    /// counts a pong, so it would ping a connection every 30 s however busy it is. Telling it on
    /// input (at most every `aliveConfirmInterval`; each call re-sorts a timer list) keeps the
    /// ping for connections nothing has arrived from, as docs/server.md says.
    func confirmAlive(_ wsi: OpaquePointer, slot: UnsafeMutablePointer<gp_connection_slot>, now: Double) {
        guard now - slot.pointee.alive_confirmed_ms >= aliveConfirmInterval else { return }
        slot.pointee.alive_confirmed_ms = now
        lws_validity_confirmed(wsi)
    }

    /// How stale the last keep-alive confirmation may be: a quarter of the idle time, at most 1 s.
    var aliveConfirmInterval: Double { min(1_000, Double(configuration.idlePingSeconds) * 250) }

    func writable(_ wsi: OpaquePointer, slot: UnsafeMutablePointer<gp_connection_slot>?) -> Int32 {
        guard let id = LWSConnections.id(of: slot) else { return 0 }
        // A close reason is set once lws has a Close frame prepared or sent: ours, or its own
        // for a protocol error it found in the input (1002 for reserved bits, …). A pending one
        // goes out before any writable callback, so here it has been sent. lws still calls this
        // callback afterwards, and it would send raw bytes in any state: the transport stops
        // here, whoever started the close (the hub hangs up when the Close was not its own).
        if lws_get_close_length(wsi) > 0 {
            submit(.closeFrameSeen(id), for: id)
            return 0
        }
        return submit(.writable(id, now: MonotonicClock.nowMilliseconds()), for: id)
    }

    /// `WS_PEER_INITIATED_CLOSE`: the peer sent a Close (`input`: its body). The hub stops
    /// writing and processing from here on. lws echoes the body (returning 0), having replaced a
    /// code RFC 6455 forbids with 1002, but checks neither a 1-byte body nor the reason's UTF-8
    /// (§5.5.1: a code, then UTF-8): those fail the connection instead (returning nonzero makes
    /// lws send the close reason set here), 1002 and 1007.
    func peerClosed(
        _ wsi: OpaquePointer, slot: UnsafeMutablePointer<gp_connection_slot>?, input: UnsafeMutableRawPointer?,
        length: Int
    ) -> Int32 {
        let body = UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length)
        if body.count == 1 {
            LWSConnections.setCloseReason(wsi, code: .protocolError, reason: "close frame with a 1-byte body")
            return -1  // the writable callback after this Close tells the hub and hangs up
        }
        if body.count > 2, String(validating: body[2...], as: UTF8.self) == nil {
            LWSConnections.setCloseReason(wsi, code: .invalidPayload, reason: "close reason is not valid UTF-8")
            return -1
        }
        if let id = LWSConnections.id(of: slot) { submit(.peerClosed(id), for: id) }
        return 0
    }

    func closed(slot: UnsafeMutablePointer<gp_connection_slot>?) {
        guard let id = connections.close(slot: slot) else { return }
        let now = MonotonicClock.nowMilliseconds()
        admission.closed(id, now: now)
        submit(.closed(id, now: now))
        pairingClosed(id, now: now)
        logger.info("connection closed", metadata: ["ws.connection.id": "\(id)"])
    }

    /// A connection's timer is due. Whether input already waits in its socket goes with it: the
    /// hub may put the timer off for that input (`ConnectionHub.timerInputGraceMilliseconds`).
    func timerFired(slot: UnsafeMutablePointer<gp_connection_slot>) {
        guard let id = LWSConnections.id(of: slot) else { return }
        let pending = slot.pointee.wsi.map { hasPendingInput($0) } ?? false
        submit(.wakeup(id, now: MonotonicClock.nowMilliseconds(), inputPending: pending), for: id)
    }

    /// True when the connection's socket has bytes to read right now.
    func hasPendingInput(_ wsi: OpaquePointer) -> Bool {
        let descriptor = lws_get_socket_fd(wsi)
        guard descriptor >= 0 else { return false }
        var probe = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&probe, 1, 0) == 1 && probe.revents & Int16(POLLIN) != 0
    }

    /// `host:port` of the server's own address for a `Location` when the request's `Host` is unusable.
    private func fallbackAuthority() -> String {
        let host = configuration.host.flatMap { ServerConfiguration.isWildcard($0) ? nil : $0 } ?? "localhost"
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
