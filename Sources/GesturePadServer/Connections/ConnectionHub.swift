import GestureControl
import GestureEngine
import GesturePadSettings
import GestureProtocol
import Logging

/// The transport-independent heart of the server, a state machine per connection: it owns
/// every connection's state, feeds complete messages to its `ProtocolSession`, routes the
/// frames it returns (a touchpad gets its own, observers get every session's gestures and the
/// session notices), forwards events to the sinks and host actions to the control backend,
/// and answers every input with the `HubAction`s the transport must carry out. It never
/// calls the transport and the transport never reads its state: one direction, lws callback
/// → `handle(_:on:)` → actions.
///
/// Time is an input: every call carries `now` on the server's monotonic clock (ms), and timers
/// come back as deadlines on that clock (`HubAction.scheduleWakeup`).
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

    /// Every connection alive (closing ones included), by id.
    var connections: [Int: Connection] = [:]
    /// Observer ids, in arrival order.
    var observers: [Int] = []
    /// Touchpad ids whose session is open, in arrival order.
    var touchpads: [Int] = []
    private var nextID = 1
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

    /// A WebSocket connection was established at `now` and the transport can serve it (its
    /// timer can be armed): returns its id, and the arming of its `hello` deadline.
    func open(now: Double) -> (id: Int, actions: [HubAction]) {
        actions.removeAll(keepingCapacity: true)
        let id = nextID
        nextID += 1
        let connection = Connection(id: id, session: makeSession(id))
        connections[id] = connection
        if !configuration.conformanceEcho {
            connection.session.start(at: now)
            rearmWakeup(of: connection)
        }
        return (id, actions)
    }

    /// A fresh protocol session for connection `id` (not started: no `hello` deadline yet).
    func makeSession(_ id: Int) -> ProtocolSession {
        ProtocolSession(
            sessionID: String(id), connectionNumber: id, config: configuration.gestures, limits: configuration.limits,
            control: control)
    }

    /// Something happened to connection `id` (unknown ids, a stale callback, are ignored):
    /// the one transition function of a connection, `(state, input) → state, actions`.
    func handle(_ input: HubInput, on id: Int) -> [HubAction] {
        actions.removeAll(keepingCapacity: true)
        guard let connection = connections[id] else { return actions }
        switch (connection.state, input) {
        case (.open, .received(let bytes, let isFinal, let isBinary, let now)):
            receive(bytes, isFinal: isFinal, isBinary: isBinary, on: connection, now: now)
        case (.closing, .received), (.closeSent, .received):
            break  // input after a close is not processed
        case (.closing(let close, _), .writable) where !close.flush || connection.outbound.isEmpty:
            sendClose(close, on: connection)
        case (.open, .writable(let now)), (.closing, .writable(let now)):
            write(connection, now: now)
        case (.closeSent, .writable):
            break  // nothing is written after a Close
        case (.open(let flow), .wakeup(let now, let inputPending)):
            if let due = flow.wakeup, inputPending, now - due < Self.timerInputGraceMilliseconds {
                // The loop was held up: input from before the deadline may wait in the socket
                // while lws runs its due timers first. It goes first (the engine orders timers
                // against messages by the page's `t`); the armed deadline stays `due`, so the
                // grace is counted from it.
                actions.append(.scheduleWakeup(id, deadline: now + Self.timerInputRetryMilliseconds))
            } else {
                connection.state = .open(.init(readingPausedAt: flow.readingPausedAt, wakeup: nil))
                fire(connection, now: now)
            }
        case (.closing, .wakeup), (.closeSent, .wakeup):
            break  // cancelled when the close started; a callback already on its way is ignored
        case (.open, .closeFrameSeen), (.closing, .closeFrameSeen):
            // Not the hub's Close: lws failed the connection (RFC 6455 §7.1.7).
            closeUnderway(connection)
            actions.append(.hangUp(id))
        case (.open, .peerClosed), (.closing, .peerClosed):
            closeUnderway(connection)
        case (.closeSent, .closeFrameSeen), (.closeSent, .peerClosed):
            break
        case (_, .closed(let now)):
            closed(connection, now: now)
        }
        return actions
    }

    /// Shutdown: every open connection closes with 1001 after its queued frames (the bridge
    /// refuses new upgrades from now on).
    func beginShutdown() -> [HubAction] {
        actions.removeAll(keepingCapacity: true)
        for id in connections.keys.sorted() {
            if let connection = connections[id] {
                startClosing(connection, .goingAway, "server shutting down", flush: true)
            }
        }
        return actions
    }
}
