import CLibWebSockets
import Crypto
import GestureControl
import GesturePadSettings
import GesturePadSystem
import GestureProtocol
import Glibc
import Logging

/// The GesturePad server on libwebsockets (default poll loop, one service thread): serves the
/// page from `publicDirectory` through an lws mount and speaks PROTOCOL.md on `/ws` through a
/// `ConnectionHub`. `init` binds the port; `run()` serves until SIGINT / SIGTERM.
public final class WebServer {
    private let configuration: ServerConfiguration
    /// The port actually bound (differs from `configuration.port` when that is 0).
    public private(set) var port: Int = 0
    /// The connection hub, behind its one door: every input goes through `submit(_:for:)`.
    private let inbox: HubInbox
    /// The sinks, the control backend and the recorder: where the hub's actions that are not
    /// the transport's go.
    private let outlets: HubOutlets
    /// Set once shutdown began: upgrades are refused from then on.
    private var shuttingDown = false
    private let logger: Logger
    /// Who gets in: every upgrade, challenge, answer and refusal count (`AdmissionDesk`).
    private let admission: AdmissionDesk
    private let storage = CStorage()
    private var context: OpaquePointer?
    /// The open WebSocket connections: their ids, lws handles and reused buffers.
    private let connections = LWSConnections()
    private let wakeTimer: UnsafeMutablePointer<lws_sorted_usec_list_t>
    /// The backend's status and layout changes, posted on its thread, applied by `run()`.
    private let controlMailbox = ControlMailbox { SignalRelay.wakeLoop() }
    /// Paired devices (nil: authentication is off, or the conformance mode).
    private let pairing: PairingService?
    /// Whether connections are paired devices (docs/server.md "Pairing").
    public var pairsDevices: Bool { pairing != nil }
    /// Wakes the loop when the next waiting device runs out of time.
    private let pairingTimer: UnsafeMutablePointer<lws_sorted_usec_list_t>
    /// Reads the configuration file again on SIGHUP (nil: nothing to reload).
    private let reloader: SettingsReloader?
    /// The desktop's touchpad settings for the desktop page (nil: its desktop keeps none
    /// GesturePad can read).
    private let touchpadWatch: TouchpadSettingsWatch?

    /// `backend` carries out what touchpads ask of the computer (`configuration.control` says
    /// whether it is active); it is the caller's to stop after `run()` returns. `recorder`
    /// keeps every touchpad session's frames (`--record`); `run()` closes it with the sinks.
    /// `pairing` keeps the paired devices (docs/server.md "Pairing"); without it, or without a
    /// token, the token is a plain bearer token. `reload` reads the configuration again on
    /// SIGHUP (`reloadConfiguration()`). `touchpadSettings` reads the desktop's touchpad
    /// settings (blocking; called on a worker thread) for the desktop page.
    public init(
        configuration: ServerConfiguration, sinks: [any GestureSink], backend: (any ControlBackend)? = nil,
        recorder: (any InputRecorder)? = nil, pairing: PairingSetup? = nil, reload: SettingsReloader? = nil,
        touchpadSettings: (@Sendable () -> DesktopTouchpadSettings?)? = nil, media: (any MediaRemote)? = nil,
        logger: Logger
    ) throws {
        self.configuration = configuration
        self.touchpadWatch = touchpadSettings.map { TouchpadSettingsWatch(read: $0) }
        self.reloader = reload
        self.logger = logger
        self.outlets = HubOutlets(sinks: sinks, backend: backend, recorder: recorder, media: media)
        self.inbox = HubInbox(
            hub: ConnectionHub(
                configuration: configuration, backendName: backend?.name, recording: recorder != nil,
                identity: ServerIdentity(
                    host: ServerIdentity.shortHostName(HostResolver.localHostName()), run: DeviceKey.randomID()),
                logger: logger))
        let pairs = configuration.token != nil && !configuration.conformanceEcho
        self.pairing = pairs ? pairing.map { PairingService(setup: $0, logger: logger) { SignalRelay.wakeLoop() } } : nil
        var policy = HandshakePolicy(token: configuration.token, maxConnections: configuration.maxConnections)
        policy.pairsDevices = self.pairing != nil
        // The server's identity key for the proof handshake, read once.
        let identity = configuration.identityKey.flatMap(ProofJudge.identity(base64URL:))
        self.admission = AdmissionDesk(policy: policy, authenticates: configuration.token != nil) {
            ProofJudge(identity: identity)
        }
        self.wakeTimer = storage.zeroed(lws_sorted_usec_list_t.self)
        self.pairingTimer = storage.zeroed(lws_sorted_usec_list_t.self)
        try start()
        self.pairing?.start(now: MonotonicClock.nowMilliseconds())
        let mailbox = controlMailbox
        backend?.observeStatus { status in mailbox.post(status) }
        backend?.observeLayout { table in mailbox.post(layout: table) }
        media?.observe { snapshot in mailbox.post(media: snapshot) }
        if let inbox = self.pairing?.inbox {
            pairing?.notifier?.observe { event in inbox.post { $0.append(event) } }
        }
    }

    deinit {
        if let context {
            connections.beginDestroying()
            SignalRelay.uninstall()
            lws_context_destroy(context)
        }
    }

    private func start() throws {
        LWSLog.install(logger)
        let (context, port) = try LWSVhost.start(
            configuration, user: Unmanaged.passUnretained(self).toOpaque(), storage: storage)
        self.context = context
        self.port = port
        LWSLog.started.store(true, ordering: .releasing)
        // From here on a signal is only recorded; `run()` acts on it.
        SignalRelay.install(waking: context)
    }

    /// Serves until SIGINT or SIGTERM (SIGHUP reopens the sinks and reloads the
    /// configuration), then closes every
    /// connection with 1001, waits up to the grace period, and closes the sinks.
    public func run() {
        guard let context else { return }
        var deadline = 0.0
        while true {
            let control = controlMailbox.take()
            if let layout = control.layout { submit(.desktopLayoutChanged(layout)) }
            if let media = control.media { submit(.mediaChanged(media, now: MonotonicClock.nowMilliseconds())) }
            if let status = control.status {
                submit(.controlStatusChanged(status, now: MonotonicClock.nowMilliseconds()))
            }
            let signals = SignalRelay.takePending()
            if signals & SignalRelay.hangup != 0 {
                logger.notice("SIGHUP: reopening the log files and reading the configuration again")
                for sink in outlets.sinks { sink.reopen() }
                reloadConfiguration()
            }
            servePairing(devicesChanged: signals & SignalRelay.devicesChanged != 0)
            if signals & SignalRelay.terminate != 0 {
                if shuttingDown { break }  // a second Ctrl-C: stop waiting
                shuttingDown = true
                logger.notice("shutting down", metadata: ["ws.connections": "\(connections.count)"])
                submit(.shutdown)
                deadline = MonotonicClock.nowMilliseconds() + configuration.shutdownGraceMilliseconds
                lws_sul_schedule(
                    context, 0, wakeTimer, gesturePadWake, lws_usec_t(configuration.shutdownGraceMilliseconds * 1_000))
            }
            if shuttingDown && (connections.isEmpty || MonotonicClock.nowMilliseconds() >= deadline) { break }
            if lws_service(context, 0) < 0 { break }
        }
        lws_sul_cancel(wakeTimer)
        lws_sul_cancel(pairingTimer)
        connections.beginDestroying()
        lws_context_destroy(context)
        self.context = nil
        // Every connection has closed: their `lastSeen` is written now, with what waited.
        pairing?.finish(now: MonotonicClock.nowMilliseconds())
        SignalRelay.uninstall()
        for sink in outlets.sinks { sink.close() }
        outlets.recorder?.close()
        logger.info("stopped")
    }

    /// Reads the configuration again (`reloader`, here on the service thread, between two
    /// rounds of lws callbacks) and hands it to the hub as `HubInput.reconfigure`, whose
    /// actions carry the hook rules to the sinks. A file with a problem changes nothing: its
    /// problems go to stderr as `check-config` prints them, and a warning says the running
    /// configuration stays.
    private func reloadConfiguration() {
        guard let reloader else { return }
        switch reloader() {
        case .success(let settings):
            submit(.reconfigure(settings))
            let hooks = settings.hooks.count
            logger.notice(
                "configuration reloaded: \(hooks) hook\(hooks == 1 ? "" : "s") from now on; gesture thresholds and control settings for the connections opened from now on",
                metadata: ["config.file": "\(settings.source ?? "none")"])
            for note in settings.restartNotes { logger.warning("\(note)") }
        case .failure(let failure):
            // As `check-config` prints them, one whole write(2) on stderr (no stdio buffer).
            let text = Array((failure.lines.joined(separator: "\n") + "\n").utf8)
            var written = 0
            while written < text.count {
                let n = text[written...].withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                written += n
            }
            logger.warning("configuration not reloaded: the file has problems (above); the running configuration stays")
        }
    }
}

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
        if let plain = LWSHTTP.plainAnswer(wsi, path: request.path, isUpgrade: true, configuration: configuration, port: port),
            case .refuse(let status, let reason) = plain
        {
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
            return LWSHTTP.writeWhole(wsi, HTTPRefusal.response(status: status, reason: reason))
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
            return LWSHTTP.writeWhole(wsi, desktopResponse(wsi, path: path))
        }
        switch LWSHTTP.plainAnswer(wsi, path: path, isUpgrade: false, configuration: configuration, port: port) {
        case nil, .serve?:
            break
        case .redirect(let location)?:
            return LWSHTTP.writeWhole(wsi, PlainRequestPolicy.redirectResponse(to: location))
        case .refuse(let status, let reason)?:
            logger.notice(
                "refused a plain HTTP request on the TLS port: \(reason)",
                metadata: ["http.status": "\(status)", "http.peer": "\(LWSRequest.peer(wsi))", "http.path": "\(path)"])
            return LWSHTTP.writeWhole(wsi, HTTPRefusal.response(status: status, reason: reason))
        }
        if let response = LWSHTTP.trustResponse(for: path, tls: configuration.tls) {
            return LWSHTTP.writeWhole(wsi, response)
        }
        if path == "/pairing", lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0 {
            return LWSHTTP.writeWhole(wsi, pairingStatusResponse(wsi))
        }
        if StaticFilePolicy.isServable(path) { return 0 }
        _ = lws_return_http_status(wsi, 404, nil)
        return 1
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
    private func confirmAlive(_ wsi: OpaquePointer, slot: UnsafeMutablePointer<gp_connection_slot>, now: Double) {
        guard now - slot.pointee.alive_confirmed_ms >= aliveConfirmInterval else { return }
        slot.pointee.alive_confirmed_ms = now
        lws_validity_confirmed(wsi)
    }

    /// How stale the last keep-alive confirmation may be: a quarter of the idle time, at most 1 s.
    private var aliveConfirmInterval: Double { min(1_000, Double(configuration.idlePingSeconds) * 250) }

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
    private func hasPendingInput(_ wsi: OpaquePointer) -> Bool {
        let descriptor = lws_get_socket_fd(wsi)
        guard descriptor >= 0 else { return false }
        var probe = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&probe, 1, 0) == 1 && probe.revents & Int16(POLLIN) != 0
    }
}

/// The hub's actions, carried out on the service thread: the transport's with lws calls, the
/// sinks', the backend's and the recorder's by `HubOutlets`, pairing's by the pairing service.
/// The bridge only carries them out: it never reads the hub's state.
extension WebServer {
    /// Hands `input` to the hub (through its `HubInbox`) and carries out the answer — then the
    /// answers of the inputs raised meanwhile (pairing's close after `unpairDevice`), each batch
    /// whole before the next. Returns what the lws callback of connection `current` must
    /// return: -1 once its Close is set (lws then sends it) or a write failed, else 0.
    @discardableResult
    private func submit(_ input: HubInput, for current: Int? = nil) -> Int32 {
        var result: Int32 = 0
        inbox.submit(input) { actions in result = carryOut(actions, for: current, after: result) }
        return result
    }

    /// Carries out `actions` in order; `result` is where the callback of `current` stood
    /// before them (-1: nothing more is done to it). Returns where it stands after.
    private func carryOut(_ actions: [HubAction], for current: Int?, after result: Int32) -> Int32 {
        var result = result
        for action in actions {
            switch action {
            case .requestWritable(let id):
                guard let wsi = connections.handle(id, unlessFailed: result, current) else { continue }
                lws_callback_on_writable(wsi)
            case .write(let id, let batch):
                guard let wsi = connections.handle(id, unlessFailed: result, current) else { continue }
                if !connections.write(batch, to: wsi), id == current { result = -1 }
            case .pauseReading(let id):
                guard let wsi = connections.handle(id, unlessFailed: result, current) else { continue }
                lws_rx_flow_control(wsi, 0)
            case .resumeReading(let id):
                guard let wsi = connections.handle(id, unlessFailed: result, current) else { continue }
                lws_rx_flow_control(wsi, 1)
            case .scheduleWakeup(let id, let deadline):
                guard let context, let slot = connections.slot(of: id) else { continue }
                let delay = max(0, deadline - MonotonicClock.nowMilliseconds())
                let microseconds = lws_usec_t((delay * 1_000).rounded(.up))
                lws_sul_schedule(context, 0, gp_slot_timer(slot), gesturePadTimerFired, microseconds)
            case .cancelWakeup(let id):
                guard let slot = connections.slot(of: id) else { continue }
                lws_sul_cancel(gp_slot_timer(slot))
            case .limitClosingTime(let id):
                guard let wsi = connections.handle(id, unlessFailed: result, current) else { continue }
                lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, 5)
            case .close(let id, let code, let reason):
                guard let wsi = connections.handle(id, unlessFailed: result, current) else { continue }
                LWSConnections.setCloseReason(wsi, code: code, reason: reason)
                if id == current { result = -1 }
            case .unpairDevice(let id):
                unpair(id)  // pairing's decisions reach the hub after this batch (`HubInbox`)
            case .judgeProof(let id, let answer):
                judgeProof(id, answer: answer)
            case .deliver, .deliverMedia, .note, .announceSession, .replaceHooks, .perform, .requestControl, .beginRecording,
                .record,
                .endRecording, .media:
                outlets.carryOut(action)
            case .hangUp(let id):
                // lws would wait 5 s for an answering Close it may never parse (it drops the rest
                // of the read that held the bad frame) or that will never come (the peer's own
                // Close was the one refused).
                guard let wsi = connections.handle(id, unlessFailed: result, current) else { continue }
                lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_ACK, CLWS_TO_KILL_ASYNC)
            }
        }
        return result
    }

}

/// Pairing on the service thread: a connection's device as it opens (after `AdmissionDesk`
/// let it in) and closes, the pairing status answer, and what pairing decided about
/// connections, handed to the hub as its inputs.
extension WebServer {
    /// `GET /pairing?token=TOKEN` (docs/protocol.md "Pairing status"): where the token stands,
    /// as JSON. Limited like upgrades: an address with no tries left gets 429, a foreign
    /// `Origin` 403, and an answer that refuses the token (`revoked`, `unknown`) costs a try.
    /// Nothing of the token is logged.
    private func pairingStatusResponse(_ wsi: OpaquePointer) -> [UInt8] {
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
    private func pairingOpened(_ id: Int, wsi: OpaquePointer, now: Double) {
        let moveOnly = configuration.tls != nil && lws_is_ssl(wsi) == 0
        switch admission.established(
            id, ticket: lws_get_opaque_user_data(wsi).map { Int(bitPattern: $0) }, address: LWSRequest.peer(wsi),
            moveOnly: moveOnly, now: now)
        {
        case .unknown:
            logger.error("a connection opened that no accepted upgrade let in: closed", metadata: ["ws.connection.id": "\(id)"])
            submit(.refuse(id, code: .internalError, reason: "the server does not know how this connection was let in"))
        case .challenge(let input):
            submit(input)
        case .pairing(let admitted, let name, let client):
            guard let pairing else { return }
            apply(pairing.opened(id, as: admitted, name: name, now: now, client: client, from: LWSRequest.peer(wsi)))
        }
    }

    private func pairingClosed(_ id: Int, now: Double) {
        guard let pairing else { return }
        apply(pairing.closed(id, now: now))
    }

    private func unpair(_ id: Int) {
        guard let pairing else { return }
        apply(pairing.unpair(id, now: MonotonicClock.nowMilliseconds()))
    }

    /// Between two service passes: `devices.json` changed (SIGUSR1), the state keeper's
    /// outcomes, the notifications' answers, a waiting device out of time or `lastSeen` due.
    private func servePairing(devicesChanged: Bool) {
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
    private func apply(_ decisions: [PairingAction]) {
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

/// The proof handshake's verdicts, and the warning about a credential in clear, on the service thread (docs/protocol.md "Proof handshake"):
/// `AdmissionDesk` judges; this carries out what it decided — a refusal (logged, the connection
/// closed with a code that says why), or a proof accepted: the connection's seal, then its move
/// to https or pairing's turn, then what it sent meanwhile.
extension WebServer {
    /// The answer of connection `id` to its challenge (the hub's `judgeProof`, carried out in
    /// the middle of a batch: the verdict's inputs reach the hub after it, in order).
    private func judgeProof(_ id: Int, answer message: [UInt8]) {
        let now = MonotonicClock.nowMilliseconds()
        let credentials = AdmissionDesk.Credentials(
            secret: configuration.token ?? "", devices: pairing?.devices, tickets: pairing?.ticketDigests(now: now) ?? [:],
            desktopKey: configuration.desktopKey, pairs: pairing != nil)
        switch admission.answer(id, message: message, credentials: credentials, now: now) {
        case nil:
            return
        case .refused(let input, let reason, let address)?:
            logger.notice("refused proof: \(reason)", metadata: ["ws.connection.id": "\(id)", "ws.peer": "\(address)"])
            submit(input)
        case .proven(let input, let then)?:
            submit(input)
            switch then {
            case .move(let device, let address):
                // Proven, so the page can believe it: the same address over https (a paired
                // device with a ticket that proves it there once); nothing else happens here.
                let ticket = device.flatMap { pairing?.moveTicket(for: $0, now: now) }
                logger.info(
                    "told a plain-HTTP page to move to HTTPS", metadata: ["ws.connection.id": "\(id)", "ws.peer": "\(address)"])
                submit(.move(id, ticket: ticket, now: now))
            case .open(let device):
                if let device, let pairing {
                    apply(
                        pairing.opened(
                            id, as: device.admission, name: device.name, now: now, derivedKey: device.derivedKey,
                            publicKey: device.publicKey, moved: device.moved, rekeyed: device.rekeyed, kind: device.kind,
                            browser: device.browser, from: device.address))
                }
                submit(.release(id, now: now))
            }
        }
    }

    /// Whether a credential in the address is safe from listeners: TLS, or a loopback peer.
    private func trustsTransport(of address: String) -> Bool {
        configuration.tls != nil || LoopbackAddress.isPeer(address)
    }

    /// A credential came in the address over plain HTTP from another machine: PROTOCOL.md
    /// "Connecting" lets a client connect with `/ws?token=TOKEN` from anywhere, and the server
    /// follows the contract, but says so — once per address (`AdmissionDesk` remembers whom it
    /// warned); the page never does this: it proves its credential instead (docs/security.md
    /// "Outside clients").
    private func warnClearCredential(from address: String) {
        logger.notice(
            "a client at \(address) connected with its credential in the address (?token=) over plain HTTP, as the protocol allows outside clients: anyone on its network can read it; the page proves its credential instead (?proof=1), or run with --tls",
            metadata: ["http.peer": "\(address)"])
    }
}

/// The desktop page's requests on the service thread (docs/server.md "The desktop page"):
/// `DesktopAccess` decides who may ask, pairing carries out what was asked.
extension WebServer {
    /// The answer to `GET /desktop/…` — JSON, or a refusal.
    private func desktopResponse(_ wsi: OpaquePointer, path: String) -> [UInt8] {
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
