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
    public let configuration: ServerConfiguration
    /// The port actually bound (differs from `configuration.port` when that is 0).
    public private(set) var port: Int = 0
    /// The connection hub, behind its one door: every input goes through `submit(_:for:)`.
    let inbox: HubInbox
    /// The sinks, the control backend and the recorder: where the hub's actions that are not
    /// the transport's go.
    let outlets: HubOutlets
    /// Set once shutdown began: upgrades are refused from then on.
    private(set) var shuttingDown = false
    let logger: Logger
    /// Who gets in: every upgrade, challenge, answer and refusal count (`AdmissionDesk`).
    let admission: AdmissionDesk
    private let storage = CStorage()
    private(set) var context: OpaquePointer?
    /// The open WebSocket connections: their ids, lws handles and reused buffers.
    let connections = LWSConnections()
    private let wakeTimer: UnsafeMutablePointer<lws_sorted_usec_list_t>
    /// The backend's status and layout changes, posted on its thread, applied by `run()`.
    private let controlMailbox = ControlMailbox { SignalRelay.wakeLoop() }
    /// Paired devices (nil: authentication is off, or the conformance mode).
    let pairing: PairingService?
    /// Whether connections are paired devices (docs/server.md "Pairing").
    public var pairsDevices: Bool { pairing != nil }
    /// Wakes the loop when the next waiting device runs out of time.
    let pairingTimer: UnsafeMutablePointer<lws_sorted_usec_list_t>
    /// Reads the configuration file again on SIGHUP (nil: nothing to reload).
    private let reloader: SettingsReloader?
    /// The desktop's touchpad settings for the desktop page (nil: its desktop keeps none
    /// GesturePad can read).
    let touchpadWatch: TouchpadSettingsWatch?

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
        if configuration.host.map(HostResolver.isIPLiteral) ?? true,
            let problem = ListenProbe.problem(host: configuration.host, port: configuration.port)
        {
            throw problem.inUse
                ? ServerStartError.portInUse(host: configuration.host, port: configuration.port, problem: problem.text)
                : ServerStartError.cannotListen(host: configuration.host, port: configuration.port, problem: problem.text)
        }
        var contextInfo = lws_context_creation_info()
        contextInfo.options = CLWS_OPTION_EXPLICIT_VHOSTS
        if configuration.tls != nil { contextInfo.options |= CLWS_OPTION_DO_SSL_GLOBAL_INIT }
        contextInfo.user = Unmanaged.passUnretained(self).toOpaque()
        guard let context = lws_create_context(&contextInfo) else {
            throw ServerStartError.noContext
        }
        self.context = context

        var info = lws_context_creation_info()
        info.vhost_name = storage.string("gesturepad")
        info.port = Int32(configuration.port)
        if let host = configuration.host, !ServerConfiguration.isWildcard(host) {
            info.iface = storage.string(host)
            if !host.contains(":") { info.options |= CLWS_OPTION_DISABLE_IPV6 }
        } else if configuration.host == "0.0.0.0" {
            info.options |= CLWS_OPTION_DISABLE_IPV6
        }
        if let tls = configuration.tls {
            info.ssl_cert_filepath = storage.string(tls.certificatePath)
            info.ssl_private_key_filepath = storage.string(tls.keyPath)
            // HTTP/1.1 only: the server frames WebSocket messages itself (LWS_WRITE_RAW) and
            // writes whole HTTP/1.1 responses, neither of which may go through an h2 stream.
            info.alpn = storage.string("http/1.1")
            // Plain HTTP on the same port is read so that an old bookmark is redirected to HTTPS;
            // `filterHTTP` and `confirmUpgrade` answer it (`PlainRequestPolicy`): lws's own
            // redirect covers the file mount only and drops the path.
            info.options |= CLWS_OPTION_ALLOW_NON_SSL_ON_SSL_PORT | CLWS_OPTION_ALLOW_HTTP_ON_HTTPS_LISTENER
        }
        info.protocols = UnsafePointer(makeProtocols())
        info.mounts = UnsafePointer(makeMount())
        info.retry_and_idle_policy = UnsafePointer(makeIdlePolicy())
        info.keepalive_timeout = 30
        WebSocketFraming.requireNoExtensions(contextInfo)
        WebSocketFraming.requireNoExtensions(info)
        guard let vhost = lws_create_vhost(context, &info) else {
            throw ServerStartError.cannotListen(host: configuration.host, port: configuration.port, problem: nil)
        }
        port = Int(lws_get_vhost_listen_port(vhost))
        guard port > 0 else {
            throw ServerStartError.cannotListen(
                host: configuration.host, port: configuration.port, problem: "no port was bound")
        }
        LWSLog.started.store(true, ordering: .releasing)
        // From here on a signal is only recorded; `run()` acts on it.
        SignalRelay.install(waking: context)
    }

    private func makeProtocols() -> UnsafeMutablePointer<lws_protocols> {
        // Two entries: ours, then the zeroed terminator (4.1.6 has no LWS_PROTOCOL_LIST_TERM).
        let protocols = storage.zeroed(lws_protocols.self, count: 2)
        protocols[0].name = storage.string("gesturepad")
        protocols[0].callback = gesturePadCallback
        protocols[0].per_session_data_size = MemoryLayout<gp_connection_slot>.size
        protocols[0].rx_buffer_size = 16_384
        return protocols
    }

    private func makeMount() -> UnsafeMutablePointer<lws_http_mount> {
        let mount = storage.zeroed(lws_http_mount.self)
        mount.pointee.mountpoint = storage.string("/")
        mount.pointee.mountpoint_len = 1
        mount.pointee.origin = storage.string(configuration.publicDirectory)
        mount.pointee.def = storage.string("index.html")
        mount.pointee.origin_protocol = UInt8(LWSMPRO_FILE.rawValue)
        mount.pointee.cache_max_age = 0
        mount.pointee.cache_reusable = 1
        mount.pointee.cache_revalidate = 1
        mount.pointee.extra_mimetypes = UnsafePointer(makeMimeTypes())
        return mount
    }

    private func makeMimeTypes() -> UnsafeMutablePointer<lws_protocol_vhost_options>? {
        let types = StaticFilePolicy.contentTypes
        let nodes = storage.zeroed(lws_protocol_vhost_options.self, count: types.count)
        for (index, (suffix, type)) in types.enumerated() {
            nodes[index].name = storage.string(suffix)
            nodes[index].value = storage.string(type)
            nodes[index].next = index + 1 < types.count ? UnsafePointer(nodes + index + 1) : nil
        }
        return nodes
    }

    private func makeIdlePolicy() -> UnsafeMutablePointer<lws_retry_bo_t> {
        let policy = storage.zeroed(lws_retry_bo_t.self)
        policy.pointee.secs_since_valid_ping = UInt16(clamping: configuration.idlePingSeconds)
        policy.pointee.secs_since_valid_hangup = UInt16(clamping: configuration.idleHangupSeconds)
        return policy
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
