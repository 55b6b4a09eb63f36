import GestureEngine
import GesturePadHost
import GestureProtocol
import Logging

/// The transport-independent heart of the server: owns every connection's state, feeds
/// complete messages to its `ProtocolSession`, routes the frames it returns (a touchpad gets
/// its own, observers get every session's gestures and the session notices), forwards
/// events to the sinks, and tells the transport what to do (write, pause, arm a timer).
///
/// Time is an input: every call carries `now` on the server's monotonic clock (ms).
final class ConnectionHub {
    let configuration: ServerConfiguration
    let sinks: [any GestureSink]
    /// Carries out the host actions of touchpad sessions (nil: control is off).
    let backend: (any ControlBackend)?
    /// Whether touchpads drive the computer now: `configuration.control` at start, then
    /// what the backend reports (`controlStatusChanged`).
    var control: ControlContext
    /// Keeps every frame of every touchpad session (`--record`; nil: off, one check per frame).
    let recorder: (any InputRecorder)?
    var logger: Logger
    weak var transport: (any HubTransport)?

    private(set) var connections: [Int: Connection] = [:]
    /// Observer ids, in arrival order.
    private(set) var observers: [Int] = []
    /// Touchpad ids whose session is open, in arrival order.
    private(set) var touchpads: [Int] = []
    private var nextID = 1
    private(set) var shuttingDown = false
    /// Reused for every call into a session, so the hot path does not allocate.
    var output = SessionOutput()

    init(
        configuration: ServerConfiguration, sinks: [any GestureSink], backend: (any ControlBackend)? = nil,
        recorder: (any InputRecorder)? = nil, logger: Logger
    ) {
        self.configuration = configuration
        self.sinks = sinks
        self.backend = backend
        self.control = configuration.control
        self.recorder = recorder
        self.logger = logger
    }

    /// WebSocket connections alive (closing ones included).
    var connectionCount: Int { connections.count }

    /// A WebSocket connection was established; returns its id.
    func open() -> Int {
        let id = nextID
        nextID += 1
        let session = ProtocolSession(
            sessionID: String(id), config: configuration.gestures, limits: configuration.limits, control: control)
        connections[id] = Connection(id: id, session: session)
        return id
    }

    /// A chunk of a frame arrived on `id`. `append` copies the chunk's `length` bytes into the
    /// buffer it is given; it is called only when the chunk is accepted. A refusal (binary frame,
    /// oversize message) starts the close; the transport sends it at the next writable callback.
    func receive(
        _ id: Int, length: Int, isFinal: Bool, isBinary: Bool, now: Double,
        append: (inout [UInt8]) -> Void
    ) {
        guard let connection = connections[id], connection.isOpen else { return }
        if isBinary {
            return refuse(connection, .unsupportedData, "binary frames are not accepted")
        }
        let limit = configuration.limits.maxMessageBytes
        if connection.message.count + length > limit {
            return refuse(connection, .messageTooBig, "message over \(limit) bytes")
        }
        append(&connection.message)
        guard isFinal else { return }
        if configuration.conformanceEcho { return echo(connection, now: now) }
        // The protocol session checks the whole message's UTF-8 (a sequence cut at its end
        // included, which lws misses) and asks to close with 1007.
        output.removeAll()
        connection.session.receive(text: connection.message.span, arrival: now, into: &output)
        if let recorder { record(connection.message, of: connection, to: recorder) }
        connection.message.removeAll(keepingCapacity: true)
        dispatch(connection, now: now)
    }

    /// The transport is ready to serve `id` (its timer can be armed) at `now`: starts the
    /// session's `hello` deadline.
    func started(_ id: Int, now: Double) {
        guard let connection = connections[id], connection.isOpen, !configuration.conformanceEcho else { return }
        connection.session.start(at: now)
        rearmTimer(of: connection)
    }

    /// The deadline the transport armed for `id` (server clock, ms), if any.
    func armedWakeup(of id: Int) -> Double? {
        connections[id]?.armedWakeup
    }

    /// The timer of `id` fired at `now`.
    func timerFired(_ id: Int, now: Double) {
        guard let connection = connections[id] else { return }
        connection.armedWakeup = nil
        guard connection.isOpen else { return }
        output.removeAll()
        connection.session.fire(now: max(now, connection.session.nextWakeup ?? now), into: &output)
        dispatch(connection, now: now)
    }

    /// `id` is writable at `now`: moves its queued frames (up to `maxWriteBytes`), framed, into
    /// `scratch`, or says it must close. `wantsMore` is true when another `SERVER_WRITEABLE`
    /// is needed. Reading resumes once the queue is below the low watermark.
    func writable(_ id: Int, into scratch: inout [UInt8], now: Double) -> (step: WriteStep, wantsMore: Bool) {
        guard let connection = connections[id] else { return (.idle, false) }
        switch connection.phase {
        case .closeSent:
            return (.idle, false)
        case .closing(let code, let reason, let flush) where !flush || connection.outbound.isEmpty:
            connection.phase = .closeSent
            connection.outbound.removeAll()
            if !connection.receiving {
                // lws must read the peer's Close to finish the handshake.
                connection.receiving = true
                connection.pausedAt = nil
                transport?.setReceiving(id, true)
            }
            return (.close(code: code, reason: reason), false)
        case .open, .closing:
            break
        }
        guard let (bytes, frames) = connection.outbound.popFramed(into: &scratch, maxBytes: Self.maxWriteBytes) else {
            return (.idle, false)
        }
        if !connection.receiving && connection.outbound.queuedBytes <= configuration.outboundLowWatermark {
            connection.receiving = true
            if let pausedAt = connection.pausedAt {
                // What the peer sent meanwhile is no burst (the server chose not to read it).
                connection.session.readingPaused(from: pausedAt, to: now)
                connection.pausedAt = nil
            }
            transport?.setReceiving(id, true)
        }
        return (.frames(bytes: bytes, frames: frames), !connection.outbound.isEmpty || !connection.isOpen)
    }

    /// The most bytes handed to one write: frames queued together go out in one `send()`
    /// (the kernel's per-send cost, not parsing or the engine, is what limits throughput).
    static let maxWriteBytes = 32_768

    /// A Close for `id` is on its way: lws answered a protocol error with its own Close (1002 for
    /// reserved bits, …), the peer sent one, or the hub's own was sent. RFC 6455 §5.5.1 allows no
    /// data frame after a Close, so the queued frames are dropped, input is no longer processed
    /// and the timer is cancelled; `closed` follows when lws lets go of the connection. Returns
    /// true when the close is not the hub's (the connection was failed without it).
    @discardableResult
    func closeUnderway(_ id: Int) -> Bool {
        guard let connection = connections[id], connection.phase != .closeSent else { return false }
        connection.phase = .closeSent
        connection.outbound.removeAll()
        connection.message.removeAll()
        cancelTimer(of: connection)
        return true
    }

    /// `id` closed at `now`: cancels its open contact (its events still reach the sinks and
    /// observers) and tells observers its session closed.
    func closed(_ id: Int, now: Double) {
        guard let connection = connections.removeValue(forKey: id) else { return }
        observers.removeAll { $0 == id }
        guard connection.role == .touchpad else { return }
        touchpads.removeAll { $0 == id }
        output.removeAll()
        connection.session.close(now: now, into: &output)
        for (kind, range) in output.frames.frames where kind == .gesture {
            broadcastToObservers(output.frames.bytes[range], now: now)
        }
        deliverEvents(of: connection)
        performActions()
        broadcastToObservers(SessionNotice.encode(session: connection.sessionName, open: false)[...], now: now)
        for sink in sinks { sink.session(connection.sessionName, open: false) }
        recorder?.ended(connection.sessionName)
    }

    /// Hands a frame the session just handled to the recorder: the one that made the
    /// connection a touchpad begins its recording, later ones of a touchpad follow. Frames
    /// before the `hello` (refused) and observers' frames are not recorded.
    private func record(_ frame: [UInt8], of connection: Connection, to recorder: any InputRecorder) {
        if connection.role == .touchpad {
            recorder.record(connection.sessionName, frame)
        } else if connection.role == nil, output.helloRole == .touchpad {
            recorder.began(connection.sessionName, with: frame)
        }
    }

    /// Shutdown: every connection closes with 1001 after its queued frames; new upgrades
    /// are refused from now on.
    func beginShutdown() {
        shuttingDown = true
        for id in connections.keys.sorted() {
            if let connection = connections[id] {
                startClosing(connection, .goingAway, "server shutting down", flush: true)
            }
        }
    }

    // MARK: - Routing

    func dispatch(_ connection: Connection, now: Double) {
        if output.helloRole == .touchpad { becameTouchpad(connection, now: now) }
        for (kind, range) in output.frames.frames {
            let frame = output.frames.bytes[range]
            switch kind {
            case .reply:
                enqueue(frame, to: connection, now: now)
            case .gesture:
                if connection.role != .observer { enqueue(frame, to: connection, now: now) }
                broadcastToObservers(frame, except: connection.id, now: now)
            }
        }
        deliverEvents(of: connection)
        performActions()
        if output.helloRole == .observer { becameObserver(connection, now: now) }
        if let close = output.close {
            startClosing(connection, close.code, close.reason, flush: true)
        }
        rearmTimer(of: connection)
    }

    private func deliverEvents(of connection: Connection) {
        guard !output.events.isEmpty else { return }
        for event in output.events {
            for sink in sinks { sink.receive(event, session: connection.sessionName) }
        }
    }

    /// Hands the session's host actions to the backend (it queues them; never blocks).
    private func performActions() {
        guard !output.actions.isEmpty, let backend else { return }
        backend.perform(output.actions[...])
    }

    private func becameTouchpad(_ connection: Connection, now: Double) {
        guard connection.role == nil else { return }
        connection.role = .touchpad
        touchpads.append(connection.id)
        logger.info("touchpad session opened", metadata: ["ws.connection.id": "\(connection.id)"])
        for sink in sinks { sink.session(connection.sessionName, open: true) }
        broadcastToObservers(SessionNotice.encode(session: connection.sessionName, open: true)[...], now: now)
        // Control ended (the desktop closed the portal session): a touchpad arriving asks again.
        if !control.isActive { backend?.requestControl() }
    }

    private func becameObserver(_ connection: Connection, now: Double) {
        guard connection.role == nil else { return }
        connection.role = .observer
        observers.append(connection.id)
        logger.info("observer joined", metadata: ["ws.connection.id": "\(connection.id)"])
        for id in touchpads {
            if let touchpad = connections[id] {
                enqueue(
                    SessionNotice.encode(session: touchpad.sessionName, open: true)[...], to: connection, now: now)
            }
        }
    }

    private func broadcastToObservers(_ frame: ArraySlice<UInt8>, except id: Int? = nil, now: Double) {
        for observerID in observers where observerID != id {
            if let observer = connections[observerID] { enqueue(frame, to: observer, now: now) }
        }
    }

    func enqueue(_ frame: ArraySlice<UInt8>, to connection: Connection, now: Double) {
        switch connection.phase {
        case .closing(_, _, flush: false), .closeSent: return
        case .open, .closing: break
        }
        let wasEmpty = connection.outbound.isEmpty
        connection.outbound.append(frame)
        let queued = connection.outbound.queuedBytes
        if queued > configuration.outboundHardCap {
            logger.warning(
                "slow consumer: closing", metadata: ["ws.connection.id": "\(connection.id)", "ws.queued": "\(queued)"])
            connection.outbound.removeAll()
            startClosing(connection, .policyViolation, "too slow: send queue over limit", flush: false)
            return
        }
        if connection.receiving && queued > configuration.outboundHighWatermark {
            connection.receiving = false
            connection.pausedAt = now
            transport?.setReceiving(connection.id, false)
        }
        if wasEmpty { transport?.requestWritable(connection.id) }
    }

    /// Closes at once, without the queued frames, for what the transport itself refuses. The
    /// close is sent from the writable callback like every other one: lws keeps parsing what it
    /// has already read (and the hub ignores it), so its frame parser never loses step.
    func refuse(_ connection: Connection, _ code: CloseCode, _ reason: String) {
        logger.notice(
            "closing connection: \(reason)",
            metadata: ["ws.connection.id": "\(connection.id)", "ws.close.code": "\(code.rawValue)"])
        startClosing(connection, code, reason, flush: false)
    }

    private func startClosing(_ connection: Connection, _ code: CloseCode, _ reason: String, flush: Bool) {
        guard connection.isOpen else { return }
        connection.phase = .closing(code: code, reason: reason, flush: flush)
        connection.message.removeAll()
        if !flush { connection.outbound.removeAll() }
        cancelTimer(of: connection)
        transport?.closeStarted(connection.id)
        transport?.requestWritable(connection.id)
    }

    private func cancelTimer(of connection: Connection) {
        guard connection.armedWakeup != nil else { return }
        connection.armedWakeup = nil
        transport?.schedule(connection.id, at: nil)
    }

    private func rearmTimer(of connection: Connection) {
        guard connection.isOpen else { return }
        let wakeup = connection.session.nextWakeup
        if wakeup != connection.armedWakeup {
            connection.armedWakeup = wakeup
            transport?.schedule(connection.id, at: wakeup)
        }
    }
}
