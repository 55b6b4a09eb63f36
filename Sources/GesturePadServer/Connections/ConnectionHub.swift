import GestureControl
import GestureEngine
import GesturePadSettings
import GestureProtocol
import Logging

/// The transport-independent heart of the server, a state machine per connection: it owns
/// every connection's state, feeds complete messages to its `ProtocolSession`, routes the
/// frames it returns (a touchpad gets its own, observers get every session's gestures and the
/// session notices), and answers every input with the `HubAction`s its shell must carry out —
/// the transport's, and what goes to the sinks, the control backend and the recorder. It calls
/// none of them, and the shell never reads its state: one direction, lws callback →
/// `handle(_:)` → actions.
///
/// Every input goes through `handle(_:)`; every change of a connection's `ConnectionState`
/// is a case of the one `switch (state, event)` in `transition(_:_:)`.
///
/// Time is an input: every call carries `now` on the server's monotonic clock (ms), and timers
/// come back as deadlines on that clock (`HubAction.scheduleWakeup`).
final class ConnectionHub {
    /// The configuration at start; a reload changes its `gestures` (`HubInput.reconfigure`).
    var configuration: ServerConfiguration
    /// The control backend's name (nil: there is none, control is off for good).
    let backendName: String?
    /// Whether touchpads drive the computer now: `configuration.control` at start, then
    /// what the backend reports (`HubInput.controlStatusChanged`).
    var control: ControlContext
    /// Whether touchpad sessions' frames are recorded (`--record`; one check per frame).
    let recording: Bool
    /// The computer and this run, for every `welcome` and observer notice (nil: none is told).
    let identity: ServerIdentity?
    var logger: Logger

    /// Every connection alive (closing ones included), by id.
    var connections: [Int: Connection] = [:]
    /// Observer ids, in arrival order.
    var observers: [Int] = []
    /// Touchpad ids whose session is open, in arrival order.
    var touchpads: [Int] = []
    /// Reused for every call into a session, so the hot path does not allocate.
    var output = SessionOutput()
    /// The actions of the call in progress, returned at its end (reused: no allocation once warm).
    var actions: [HubAction] = []
    /// The messages of the write in progress (reused).
    var batch = OutboundBatch()

    /// The most bytes of messages handed to one write: messages queued together go out in one
    /// `send()` (the kernel's per-send cost, not parsing or the engine, is what limits throughput).
    static let maxWriteBytes = 32_768
    /// How long a due timer may wait for input that already waits in its connection's socket
    /// (ms past its deadline).
    static let timerInputGraceMilliseconds = 25.0
    /// How soon a timer put off for pending input fires again (ms).
    static let timerInputRetryMilliseconds = 1.0

    init(
        configuration: ServerConfiguration, backendName: String? = nil, recording: Bool = false,
        identity: ServerIdentity? = nil, logger: Logger
    ) {
        self.configuration = configuration
        self.backendName = backendName
        self.control = configuration.control
        self.recording = recording
        self.identity = identity
        self.logger = logger
    }

    /// Something happened (unknown connection ids, a stale callback, are ignored): returns what
    /// the shell must do about it, in order.
    func handle(_ input: HubInput) -> [HubAction] {
        actions.removeAll(keepingCapacity: true)
        switch input {
        case .opened(let id, let now):
            open(id, now: now)
        case .received(let id, let bytes, let isFinal, let isBinary, let now):
            signal(.received(bytes, isFinal: isFinal, isBinary: isBinary, now: now), to: id)
        case .writable(let id, let now):
            signal(.writable(now: now), to: id)
        case .wakeup(let id, let now, let inputPending):
            signal(.wakeup(now: now, inputPending: inputPending), to: id)
        case .closeFrameSeen(let id):
            signal(.closeFrameSeen, to: id)
        case .peerClosed(let id):
            signal(.peerClosed, to: id)
        case .closed(let id, let now):
            signal(.closed(now: now), to: id)
        case .greet(let id, let device):
            signal(.greet(device), to: id)
        case .hold(let id, let device, let now):
            signal(.hold(device, now: now), to: id)
        case .admit(let id, let device, let now):
            signal(.admit(device, now: now), to: id)
        case .refuse(let id, let code, let reason):
            if let connection = connections[id] { refuse(connection, code, reason) }
        case .rename(let id, let device, let now):
            if let connection = connections[id] { rename(connection, as: device, now: now) }
        case .challenge(let id, let nonce, let now):
            if let connection = connections[id] { challenge(connection, nonce: nonce, now: now) }
        case .proven(let id, let serverProof, let seal, let now):
            if let connection = connections[id] { proven(connection, serverProof: serverProof, seal: seal, now: now) }
        case .release(let id, let now):
            if let connection = connections[id] { release(connection, now: now) }
        case .controlStatusChanged(let status, let now):
            controlStatusChanged(status, now: now)
        case .reconfigure(let settings):
            reconfigure(settings)
        case .shutdown:
            let close = ConnectionState.CloseRequest(code: .goingAway, reason: "server shutting down", flush: true)
            for id in connections.keys.sorted() { signal(.closeDecided(close), to: id) }
        }
        return actions
    }

    /// Connection `id` begins, `open`; its session's `hello` deadline is armed (not in the
    /// conformance mode, which has none).
    private func open(_ id: Int, now: Double) {
        guard connections[id] == nil else {
            logger.error("connection id used twice: ignored", metadata: ["ws.connection.id": "\(id)"])
            return
        }
        let connection = Connection(id: id, session: makeSession(id))
        connections[id] = connection
        guard !configuration.conformanceEcho else { return }
        connection.session.start(at: now)
        transition(connection, .timersChanged)
    }

    /// `event` happens to connection `id`, if it is alive.
    func signal(_ event: ConnectionEvent, to id: Int) {
        if let connection = connections[id] { transition(connection, event) }
    }

    /// A fresh protocol session for connection `id` (not started: no `hello` deadline yet).
    func makeSession(_ id: Int) -> ProtocolSession {
        var session = ProtocolSession(
            sessionID: String(id), connectionNumber: id, config: configuration.gestures, limits: configuration.limits,
            control: control)
        session.identity = identity
        return session
    }
}
