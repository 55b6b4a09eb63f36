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
    /// What the computer's media players do, as last told (`HubInput.mediaChanged`; nil: not
    /// known yet, or no media remote).
    var media: MediaSnapshot?
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
    /// Set while `handle(_:)` runs (a check against re-entry).
    private var handling = false

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
    /// the shell must do about it, in order. The hub-wide state (the tables, `control`,
    /// `configuration`) changes here and in `transition(_:_:)` only. Not re-entrant: an input
    /// raised while the shell carries out the answer waits in `HubInbox`.
    func handle(_ input: HubInput) -> [HubAction] {
        assert(!handling, "ConnectionHub.handle re-entered: inputs raised by actions go through HubInbox")
        handling = true
        defer { handling = false }
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
        case .hold(let id, let device, let wait, let now):
            signal(.hold(device, wait, now: now), to: id)
        case .admit(let id, let device, let now):
            signal(.admit(device, now: now), to: id)
        case .refuse(let id, let code, let reason):
            if let connection = connections[id] { refuse(connection, code, reason) }
        case .rename(let id, let device, let now):
            signal(.rename(device, now: now), to: id)
        case .challenge(let id, let nonce, let exchange, let identity, let https, let now):
            signal(.challenge(nonce: nonce, exchange: exchange, identity: identity, https: https, now: now), to: id)
        case .proven(let id, let serverProof, let seal, let now):
            signal(.proven(serverProof: serverProof, seal: seal, now: now), to: id)
        case .release(let id, let now):
            signal(.release(now: now), to: id)
        case .move(let id, let ticket, let now):
            signal(.move(ticket: ticket, now: now), to: id)
        case .controlStatusChanged(let status, let now):
            // Every open connection hears it, not only touchpads: one that has not said hello
            // yet must welcome with the new status (its session took the old one when it opened).
            guard let updated = controlStatus(after: status) else { break }
            control.status = updated
            for id in connections.keys.sorted() { signal(.controlChanged(now: now), to: id) }
        case .mediaChanged(let snapshot, let now):
            guard snapshot != media else { break }
            let events = MediaEvent.changes(from: media, to: snapshot)
            if !events.isEmpty { actions.append(.deliverMedia(events)) }
            media = snapshot
            for id in connections.keys.sorted() { signal(.mediaChanged(now: now), to: id) }
        case .desktopLayoutChanged(let table):
            // Only a backend that follows the desktop's layout reports one.
            guard case .desktopLayout(let known) = control.capabilities.characters, known != table else { break }
            control.capabilities.characters = .desktopLayout(table)
            logger.notice(
                "control: the desktop's keyboard layout: \(table.names.joined(separator: ", ")) (\(table.keysyms.count) characters)"
            )
            for id in connections.keys.sorted() { signal(.layoutChanged, to: id) }
        case .reconfigure(let settings):
            // The next sessions get the new thresholds and mapping settings — open ones keep
            // theirs, so a phone's own changes and a contact in progress stay as they are —
            // and the sinks the new hook rules. The gestures the rules claim change with them,
            // for open touchpads too.
            configuration.gestures = settings.gestures
            if let mapping = settings.control {
                let claimsChanged = mapping.claims != control.settings.claims
                control.settings = mapping
                if claimsChanged { for id in connections.keys.sorted() { signal(.claimsChanged, to: id) } }
            }
            actions.append(.replaceHooks(settings.hooks))
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
