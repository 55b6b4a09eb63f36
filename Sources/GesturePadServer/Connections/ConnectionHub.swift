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
    /// What `Connection.enter(_:_:)` asks for: only this file makes one (in `transition`), so
    /// no other code can move a connection's state.
    struct TransitionKey {
        fileprivate init() {}
    }

    /// The configuration at start; a reload changes its `gestures` (`HubInput.reconfigure`).
    private var configuration: ServerConfiguration
    /// The control backend's name (nil: there is none, control is off for good).
    private let backendName: String?
    /// Whether touchpads drive the computer now: `configuration.control` at start, then
    /// what the backend reports (`HubInput.controlStatusChanged`).
    private(set) var control: ControlContext
    /// What the computer's media players do, as last told (`HubInput.mediaChanged`; nil: not
    /// known yet, or no media remote).
    private var media: MediaSnapshot?
    /// Whether touchpad sessions' frames are recorded (`--record`; one check per frame).
    let recording: Bool
    /// The computer and this run, for every `welcome` and observer notice (nil: none is told).
    private let identity: ServerIdentity?
    private var logger: Logger

    /// Every connection alive (closing ones included), by id.
    private(set) var connections: [Int: Connection] = [:]
    /// Observer ids, in arrival order.
    private var observers: [Int] = []
    /// Touchpad ids whose session is open, in arrival order.
    private(set) var touchpads: [Int] = []
    /// Reused for every call into a session, so the hot path does not allocate.
    private(set) var output = SessionOutput()
    /// The actions of the call in progress, returned at its end (reused: no allocation once warm).
    private var actions: [HubAction] = []
    /// The messages of the write in progress (reused).
    private var batch = OutboundBatch()
    /// Set while `handle(_:)` runs (a check against re-entry).
    private var handling = false

    /// The most bytes of messages handed to one write: messages queued together go out in one
    /// `send()` (the kernel's per-send cost, not parsing or the engine, is what limits throughput).
    private static let maxWriteBytes = 32_768
    /// How long a due timer may wait for input that already waits in its connection's socket
    /// (ms past its deadline).
    static let timerInputGraceMilliseconds = 25.0
    /// How soon a timer put off for pending input fires again (ms).
    private static let timerInputRetryMilliseconds = 1.0

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
    private func signal(_ event: ConnectionEvent, to id: Int) {
        if let connection = connections[id] { transition(connection, event) }
    }

    /// A fresh protocol session for connection `id` (not started: no `hello` deadline yet).
    private func makeSession(_ id: Int) -> ProtocolSession {
        ProtocolSession(
            sessionID: String(id), connectionNumber: id, config: configuration.gestures, limits: configuration.limits,
            control: control, identity: identity)
    }
}

/// The one transition function of a connection.
extension ConnectionHub {
    /// `(state, event) → state, actions`: every change of `connection.state` is made here, in
    /// the case that says why. The helpers a case calls do the work that changes no state
    /// (the session, routing, the shell's actions); what they decide about a connection comes
    /// back here as an event (`queued`, `closeDecided`, `timersChanged`).
    private func transition(_ connection: Connection, _ event: ConnectionEvent) {
        let id = connection.id
        let key = TransitionKey()
        switch (connection.state, event) {
        // MARK: Input
        case (.open(var flow), .received(let bytes, let isFinal, let isBinary, let now)):
            guard accepts(bytes, isBinary: isBinary, on: connection) else { break }
            connection.message.append(contentsOf: bytes)
            guard isFinal else { break }
            switch flow.proof {
            case .awaiting:
                // The first message is the answer to the challenge, for the shell to judge.
                flow.proof = .judging
                connection.enter(.open(flow), key)
                actions.append(.judgeProof(id, connection.message))
            case .judging:
                // What follows (the page's `hello`, sent without waiting) waits for the verdict.
                if keepUnread(connection.message, in: &flow.held, bytes: &flow.heldBytes, of: connection) {
                    connection.enter(.open(flow), key)
                }
            case .none where configuration.conformanceEcho:
                echo(connection, now: now)
            case .none:
                process(connection.message, of: connection, now: now)
            }
            connection.clearMessage()
        case (.waiting(var waiting), .received(let bytes, let isFinal, let isBinary, _)):
            // Kept for its session until it is admitted.
            guard accepts(bytes, isBinary: isBinary, on: connection) else { break }
            connection.message.append(contentsOf: bytes)
            guard isFinal else { break }
            if keepUnread(connection.message, in: &waiting.held, bytes: &waiting.heldBytes, of: connection) {
                connection.enter(.waiting(waiting), key)
            }
            connection.clearMessage()
        case (.closing, .received), (.closeSent, .received):
            break  // input after a close is not processed

        // MARK: Output
        case (.closing(let close, _), .queued) where !close.flush:
            break  // closing without its queue
        case (.open, .queued(let frame, let now)), (.waiting, .queued(let frame, let now)),
            (.closing, .queued(let frame, let now)):
            // Queued; past the high watermark reading pauses (a connection's own input is what
            // fills its queue), past the hard cap the connection closes.
            let wasEmpty = connection.outbound.isEmpty
            connection.outbound.append(frame)
            let queued = connection.outbound.queuedBytes
            if queued > configuration.outboundHardCap {
                // A consumer that stopped reading: closed without its queue.
                logger.warning("slow consumer: closing", metadata: ["ws.connection.id": "\(id)", "ws.queued": "\(queued)"])
                connection.outbound.removeAll()
                transition(connection, .closeDecided(Self.tooSlow))
                break
            }
            if connection.state.readingPausedAt == nil && queued > configuration.outboundHighWatermark {
                connection.enter(connection.state.withReadingPaused(at: now), key)
                actions.append(.pauseReading(id))
            }
            if wasEmpty { actions.append(.requestWritable(id)) }
        case (.closeSent, .queued):
            break  // nothing is queued after a Close
        case (.closing(let close, let pausedAt), .writable) where !close.flush || connection.outbound.isEmpty:
            // Nothing (more) to flush: the Close goes out, and nothing after it.
            connection.enter(.closeSent, key)
            connection.outbound.removeAll()
            // lws must read the peer's Close to finish the handshake.
            if pausedAt != nil { actions.append(.resumeReading(id)) }
            actions.append(.close(id, code: close.code, reason: close.reason))
        case (.open, .writable(let now)), (.waiting, .writable(let now)), (.closing, .writable(let now)):
            // The oldest messages (up to `maxWriteBytes`) go to the transport; reading resumes
            // once the queue is below the low watermark.
            guard connection.outbound.pop(into: &batch, maxBytes: Self.maxWriteBytes) > 0 else { break }
            if let pausedAt = connection.state.readingPausedAt,
                connection.outbound.queuedBytes <= configuration.outboundLowWatermark
            {
                // What the peer sent meanwhile is no burst (the server chose not to read it).
                connection.session.readingPaused(from: pausedAt, to: now)
                connection.enter(connection.state.withReadingPaused(at: nil), key)
                actions.append(.resumeReading(id))
            }
            actions.append(.write(id, batch))
            // More to write, or the Close still to come.
            if !connection.outbound.isEmpty || connection.state.isClosing { actions.append(.requestWritable(id)) }
        case (.closeSent, .writable):
            break  // nothing is written after a Close

        // MARK: Timers
        case (.open(let flow), .timersChanged):
            let wakeup = connection.session.nextWakeup
            guard wakeup != flow.wakeup else { break }
            var rearmed = flow
            rearmed.wakeup = wakeup
            connection.enter(.open(rearmed), key)
            actions.append(wakeup.map { .scheduleWakeup(id, deadline: $0) } ?? .cancelWakeup(id))
        case (.waiting, .timersChanged), (.closing, .timersChanged), (.closeSent, .timersChanged):
            break  // no timer runs
        case (.open(let flow), .wakeup(let now, let inputPending)):
            if let due = flow.wakeup, inputPending, now - due < Self.timerInputGraceMilliseconds {
                // The loop was held up: input from before the deadline may wait in the socket
                // while lws runs its due timers first. It goes first (the engine orders timers
                // against messages by the page's `t`); the armed deadline stays `due`, so the
                // grace is counted from it.
                actions.append(.scheduleWakeup(id, deadline: now + Self.timerInputRetryMilliseconds))
            } else {
                var fired = flow
                fired.wakeup = nil
                connection.enter(.open(fired), key)
                fire(connection, now: now)
            }
        case (.waiting, .wakeup), (.closing, .wakeup), (.closeSent, .wakeup):
            break  // cancelled when it began to wait or close; a callback already on its way is ignored

        // MARK: Closing
        case (.open, .closeDecided(let close)), (.waiting, .closeDecided(let close)):
            // The message being reassembled is dropped, the queued frames too unless
            // `close.flush`, the timer is cancelled, and the Close waits for the next writable
            // callback (dropped if it never comes).
            let armed = connection.state.wakeup != nil
            connection.enter(.closing(close, readingPausedAt: connection.state.readingPausedAt), key)
            connection.message.removeAll()
            if !close.flush { connection.outbound.removeAll() }
            if armed { actions.append(.cancelWakeup(id)) }
            actions.append(.limitClosingTime(id))
            actions.append(.requestWritable(id))
        case (.closing, .closeDecided), (.closeSent, .closeDecided):
            break  // the first close stands
        case (.open, .closeFrameSeen), (.waiting, .closeFrameSeen), (.closing, .closeFrameSeen),
            (.open, .peerClosed), (.waiting, .peerClosed), (.closing, .peerClosed):
            // A Close is on its way that the hub did not send now: lws's own for a protocol
            // error, or its answer to the peer's. RFC 6455 §5.5.1 allows no data frame after
            // it: the queue is dropped, input is no longer processed, the timer is cancelled.
            if connection.state.wakeup != nil { actions.append(.cancelWakeup(id)) }
            connection.enter(.closeSent, key)
            connection.outbound.removeAll()
            connection.message.removeAll()
            // Not the hub's Close: lws failed the connection (RFC 6455 §7.1.7).
            if case .closeFrameSeen = event { actions.append(.hangUp(id)) }
        case (.closeSent, .closeFrameSeen), (.closeSent, .peerClosed):
            break
        case (_, .closed(let now)):
            // lws let go: the connection leaves every state and every table.
            connections.removeValue(forKey: id)
            observers.removeAll { $0 == id }
            touchpads.removeAll { $0 == id }
            if connection.role == .touchpad { departed(connection, now: now) }

        // MARK: Pairing and control
        case (.open, .greet(let device)), (.waiting, .greet(let device)):
            connection.session.greet(as: device)
        case (.closing, .greet), (.closeSent, .greet):
            break
        case (.open(let flow), .hold(let device, let wait, let now)):
            // A fresh session, not started: no `hello` deadline while the computer's user decides.
            connection.session = makeSession(id)
            if connection.seal != nil { connection.session.requireSealedInput() }
            // What arrived while its proof was judged stays unread until it is admitted.
            connection.enter(
                .waiting(.init(readingPausedAt: flow.readingPausedAt, held: flow.held, heldBytes: flow.heldBytes)), key)
            if flow.wakeup != nil { actions.append(.cancelWakeup(id)) }
            var notice: [UInt8] = []
            MessageEncoder.appendPairingWaiting(device: device, for: wait, to: &notice)
            queueSealed(notice[...], to: connection, now: now)
        case (.waiting, .hold), (.closing, .hold), (.closeSent, .hold):
            break
        case (.waiting(let waiting), .admit(let device, let now)):
            // Its session starts (the `hello` deadline from now) and reads what was kept.
            connection.enter(.open(.init(readingPausedAt: waiting.readingPausedAt)), key)
            connection.session.greet(as: device)
            connection.session.start(at: now)
            readKept(waiting.held, of: connection, now: now)
        case (.open, .admit), (.closing, .admit), (.closeSent, .admit):
            break
        case (.open(var flow), .challenge(let nonce, let exchange, let identity, let https, let now)):
            guard flow.proof == .none else { break }
            if nonce != nil {
                flow.proof = .awaiting
                connection.enter(.open(flow), key)
            }
            var challenge: [UInt8] = []
            MessageEncoder.appendChallenge(
                nonce: nonce, exchange: exchange, identity: identity, https: https, to: &challenge)
            transition(connection, .queued(challenge[...], now: now))
        case (.open(var flow), .proven(let serverProof, let seal, let now)):
            // Its control messages come sealed with `seal` from now on.
            guard flow.proof == .judging else { break }
            flow.proof = .none
            connection.enter(.open(flow), key)
            connection.seal = seal
            connection.session.requireSealedInput()
            var authenticated: [UInt8] = []
            MessageEncoder.appendAuthenticated(serverProof: serverProof, to: &authenticated)
            transition(connection, .queued(authenticated[...], now: now))
        case (.open(var flow), .release(let now)):
            // What arrived while the proof was judged is read now.
            guard flow.proof == .none else { break }
            let held = flow.held
            flow.held = []
            flow.heldBytes = 0
            connection.enter(.open(flow), key)
            readKept(held, of: connection, now: now)
        case (.open(let flow), .move(let ticket, let now)):
            // Just proven (its seal set): told where to go, sealed, then closed after it.
            guard flow.proof == .none, connection.seal != nil else { break }
            var message: [UInt8] = []
            MessageEncoder.appendMove(ticket: ticket, to: &message)
            queueSealed(message[...], to: connection, now: now)
            transition(
                connection,
                .closeDecided(.init(code: .movedToTLS, reason: "this computer speaks HTTPS now: use https://", flush: true)))
        case (.waiting, .challenge), (.closing, .challenge), (.closeSent, .challenge), (.waiting, .proven),
            (.closing, .proven), (.closeSent, .proven), (.closing, .release), (.closeSent, .release), (.waiting, .move),
            (.closing, .move), (.closeSent, .move):
            break
        case (.waiting, .release):
            break  // held for the computer's user: what it sent is read once it is admitted
        case (.open, .rename(let device, let now)):
            connection.session.greet(as: DeviceGreeting(id: device.id, name: device.name, kind: device.kind))
            tellRenamed(connection, device, now: now)
        case (.waiting, .rename(let device, _)), (.closing, .rename(let device, _)), (.closeSent, .rename(let device, _)):
            connection.session.greet(as: DeviceGreeting(id: device.id, name: device.name, kind: device.kind))
        case (.open, .joined(let role, let now)):
            switch role {
            case .touchpad:
                touchpads.append(id)
                announceTouchpad(connection, now: now)
            case .observer:
                observers.append(id)
                showTouchpads(to: connection, now: now)
            }
        case (.waiting, .joined), (.closing, .joined), (.closeSent, .joined):
            break  // a session speaks only while its connection is open
        case (.open, .controlChanged(let now)):
            output.removeAll()
            connection.session.updateControl(control, into: &output)
            dispatch(connection, now: now)
        case (.waiting, .controlChanged), (.closing, .controlChanged), (.closeSent, .controlChanged):
            break
        case (.open, .mediaChanged(let now)):
            guard let media else { break }
            output.removeAll()
            connection.session.updateMedia(media, now: now, into: &output)
            // A page that did not ask hears nothing: no dispatch for it.
            if !output.frames.frames.isEmpty { dispatch(connection, now: now) }
        case (.waiting, .mediaChanged), (.closing, .mediaChanged), (.closeSent, .mediaChanged):
            break  // a waiting page hears the players once it is let in and says hello
        case (.open, .layoutChanged), (.waiting, .layoutChanged):
            connection.session.updateCapabilities(control.capabilities)
        case (.closing, .layoutChanged), (.closeSent, .layoutChanged):
            break  // its session is no longer called
        case (.open, .claimsChanged), (.waiting, .claimsChanged):
            connection.session.updateClaims(control.settings.claims)
        case (.closing, .claimsChanged), (.closeSent, .claimsChanged):
            break  // its session is no longer called
        }
    }
}

/// The work of the transitions on input, time and departure (`transition(_:_:)` calls these;
/// none of them changes a connection's state: what they decide goes back as an event).
extension ConnectionHub {
    /// A consumer that stopped reading is closed with 1008, without its queue.
    private static let tooSlow = ConnectionState.CloseRequest(
        code: .policyViolation, reason: "too slow: send queue over limit", flush: false)

    /// Whether a chunk of a data frame may join `connection.message`: a binary frame or a
    /// message over the size limit is refused before its bytes are kept (the Close is sent at
    /// the next writable callback).
    private func accepts(_ bytes: ArraySlice<UInt8>, isBinary: Bool, on connection: Connection) -> Bool {
        if isBinary {
            refuse(connection, .unsupportedData, "binary frames are not accepted")
            return false
        }
        // Per fragment, before copying: a message sent as many small fragments cannot grow past
        // the limit. (The session checks whole messages again for `replay`, which has no hub.)
        let limit = configuration.limits.maxMessageBytes
        if connection.message.count + bytes.count > limit {
            refuse(connection, .messageTooBig, "message over \(limit) bytes")
            return false
        }
        return true
    }

    /// A complete message for the session of an open connection: the session checks its UTF-8
    /// (a sequence cut at its end included, which lws misses) and asks to close with 1007 if
    /// need be; the recorder gets it (`--record`); what the session produced is dispatched.
    /// A sealed message (docs/protocol.md "Sealed messages") is opened first; one that does not
    /// open closes the connection (4413), and the session reads the plaintext.
    private func process(_ message: [UInt8], of connection: Connection, now: Double) {
        output.removeAll()
        // The shape first: a pointer batch (`[…`) fails it at its first byte, with no copy of the seal.
        if connection.seal != nil, SealedChannel.isSealed(message), var seal = connection.seal {
            guard let plain = seal.open(frame: message) else {
                return refuse(
                    connection, .sealBroken, "a sealed message did not open (forged, altered, replayed or out of order)")
            }
            connection.seal = seal
            connection.session.receive(text: plain.span, arrival: now, sealed: true, into: &output)
            if recording { record(plain, of: connection) }
        } else {
            connection.session.receive(text: message.span, arrival: now, into: &output)
            if recording { record(message, of: connection) }
        }
        dispatch(connection, now: now)
    }

    /// The session's timers that are due at `now` fire.
    private func fire(_ connection: Connection, now: Double) {
        output.removeAll()
        connection.session.fire(now: max(now, connection.session.nextWakeup ?? now), into: &output)
        dispatch(connection, now: now)
    }

    /// Closes at once, without the queued frames, for what the transport or pairing refuses.
    /// The close is sent from the writable callback like every other one: lws keeps parsing
    /// what it has already read (and the hub ignores it), so its frame parser never loses step.
    private func refuse(_ connection: Connection, _ code: CloseCode, _ reason: String) {
        logger.notice(
            "closing connection: \(reason)",
            metadata: ["ws.connection.id": "\(connection.id)", "ws.close.code": "\(code.rawValue)"])
        transition(connection, .closeDecided(.init(code: code, reason: reason, flush: false)))
    }

    /// Touchpad `connection` is gone at `now` (it left the hub's tables): its open contact is
    /// cancelled (its events still reach the sinks, the backend and observers), observers
    /// hear its session closed, and the sinks and the recorder that it ended.
    private func departed(_ connection: Connection, now: Double) {
        output.removeAll()
        connection.session.close(now: now, into: &output)
        for (kind, range) in output.frames.frames where kind == .gesture {
            broadcastToObservers(output.frames.bytes[range], now: now)
        }
        handOver(of: connection)
        broadcastToObservers(notice(of: connection, open: false)[...], now: now)
        actions.append(.announceSession(connection.sessionName, open: false))
        if recording { actions.append(.endRecording(session: connection.sessionName)) }
    }
}

/// Where what a session produced goes: its own queue and the observers' queues (as `queued`
/// events), and, as actions for the shell, the sinks, the control backend and the recorder.
extension ConnectionHub {
    /// Routes `output` (what the session of `connection` just produced), then closes as the
    /// session asked and re-arms its timer.
    private func dispatch(_ connection: Connection, now: Double) {
        let watching = output.mediaWatchStarted
        if output.helloRole == .touchpad { transition(connection, .joined(.touchpad, now: now)) }
        for (kind, range) in output.frames.frames {
            let frame = output.frames.bytes[range]
            switch kind {
            case .reply:
                // The replies (welcome, held, settings, control, pong, error): sealed on a
                // connection that proved its credential.
                queueSealed(frame, to: connection, now: now)
            case .gesture:
                if connection.role != .observer { transition(connection, .queued(frame, now: now)) }
                broadcastToObservers(frame, except: connection.id, now: now)
            case .command:
                // What was typed or pressed: sealed for each connection that proved its credential.
                if connection.role != .observer { queueSealed(frame, to: connection, now: now) }
                for observerID in observers where observerID != connection.id {
                    if let observer = connections[observerID] { queueSealed(frame, to: observer, now: now) }
                }
            }
        }
        handOver(of: connection)
        if output.helloRole == .observer { transition(connection, .joined(.observer, now: now)) }
        if output.unpairRequested { actions.append(.unpairDevice(connection.id)) }
        for command in output.mediaCommands { actions.append(.media(command)) }
        if let close = output.close {
            transition(connection, .closeDecided(.init(code: close.code, reason: close.reason, flush: true)))
        }
        transition(connection, .timersChanged)
        // A page that just asked hears what the computer's players do now (a call of its own:
        // `output` is spent).
        if watching, media != nil { transition(connection, .mediaChanged(now: now)) }
    }

    /// The session's events and notes for the sinks, its host actions for the backend: views
    /// of `output`, carried out before the next input.
    private func handOver(of connection: Connection) {
        if !output.events.isEmpty {
            actions.append(.deliver(session: connection.sessionName, events: output.events[...]))
        }
        if !output.notes.isEmpty {
            actions.append(.note(session: connection.sessionName, notes: output.notes[...]))
        }
        if !output.actions.isEmpty, backendName != nil {
            actions.append(.perform(output.actions[...]))
        }
    }

    /// A frame the session just handled, for the recorder: the one that made the connection a
    /// touchpad begins its recording, later ones of a touchpad follow. Frames before the
    /// `hello` (refused) and observers' frames are not recorded.
    private func record(_ frame: [UInt8], of connection: Connection) {
        if output.helloRole == .touchpad {
            actions.append(.beginRecording(session: connection.sessionName, frame: frame))
        } else if connection.role == .touchpad {
            actions.append(.record(session: connection.sessionName, frame: frame))
        }
    }

    /// Touchpad `connection` joined: the log, the sinks and the observers hear of its session.
    private func announceTouchpad(_ connection: Connection, now: Double) {
        logger.info("touchpad session opened", metadata: ["ws.connection.id": "\(connection.id)"])
        actions.append(.announceSession(connection.sessionName, open: true))
        broadcastToObservers(notice(of: connection, open: true)[...], now: now)
        // Control ended (the desktop closed the portal session): a touchpad arriving asks again.
        if !control.isActive && backendName != nil { actions.append(.requestControl) }
    }

    /// Observer `connection` joined: it hears of every touchpad session already open.
    private func showTouchpads(to connection: Connection, now: Double) {
        logger.info("observer joined", metadata: ["ws.connection.id": "\(connection.id)"])
        for id in touchpads {
            if let touchpad = connections[id] {
                transition(connection, .queued(notice(of: touchpad, open: true)[...], now: now))
            }
        }
    }

    /// The observer notice of touchpad `connection` opening or closing: with this run's id and
    /// its device's name (docs/protocol.md "Server identity").
    private func notice(of connection: Connection, open: Bool) -> [UInt8] {
        SessionNotice.encode(
            session: connection.sessionName, open: open, run: identity?.run, name: connection.session.device?.name)
    }

    /// Queues `frame` sealed for `connection` when it proved its credential (docs/protocol.md
    /// "Sealed messages"), as it is otherwise.
    private func queueSealed(_ frame: ArraySlice<UInt8>, to connection: Connection, now: Double) {
        guard var seal = connection.seal else { return transition(connection, .queued(frame, now: now)) }
        let sealed = seal.seal(Array(frame))
        connection.seal = seal
        transition(connection, .queued(sealed[...], now: now))
    }

    private func broadcastToObservers(_ frame: ArraySlice<UInt8>, except id: Int? = nil, now: Double) {
        for observerID in observers where observerID != id {
            signal(.queued(frame, now: now), to: observerID)
        }
    }
}

/// The work of the proof handshake's transitions (docs/protocol.md "Proof handshake"): the
/// challenge goes out (`challenge`), the first message is handed to the shell to judge, what
/// follows waits unread until the verdict (`Flow.held`), the shell then says `proven` (or
/// refuses the connection) and `release`s what waited. The stage is the open state's
/// (`Flow.proof`); only `transition(_:_:)` changes it.
extension ConnectionHub {
    /// Adds a complete `message` to those a connection keeps unread (while its proof is judged,
    /// or while it waits for the computer's user): up to one message's worth in all (a page
    /// sends only its `hello` before it is answered). More refuses the connection (1008) and
    /// returns false.
    private func keepUnread(_ message: [UInt8], in held: inout [[UInt8]], bytes: inout Int, of connection: Connection) -> Bool {
        let limit = configuration.limits.maxMessageBytes
        guard bytes + message.count <= limit else {
            refuse(connection, .policyViolation, "more than \(limit) bytes sent before the pairing was accepted")
            return false
        }
        bytes += message.count
        held.append(message)
        return true
    }
}

/// The connection's side of pairing (`PairingDesk` decides; its actions arrive as `HubInput`s):
/// the work of the `admit` and `rename` transitions.
extension ConnectionHub {
    /// `connection` reads the messages it kept unread — admitted, those it sent while it
    /// waited; released after its proof, those that came while it was judged — while it stays
    /// open; then its timer is armed.
    private func readKept(_ held: [[UInt8]], of connection: Connection, now: Double) {
        for message in held where connection.state.isOpen {
            process(message, of: connection, now: now)
        }
        transition(connection, .timersChanged)
    }

    /// The device of open `connection` is now called `device.name` (its session has the new
    /// name): once it said `hello` it gets the `device` notice, and when it is a touchpad the
    /// observers get its session notice again with the new name.
    private func tellRenamed(_ connection: Connection, _ device: DeviceGreeting, now: Double) {
        guard let role = connection.role else { return }
        var bytes: [UInt8] = []
        MessageEncoder.appendDeviceNotice(device, to: &bytes)
        queueSealed(bytes[...], to: connection, now: now)
        if role == .touchpad, touchpads.contains(connection.id) {
            broadcastToObservers(notice(of: connection, open: true)[...], now: now)
        }
    }
}

/// Control that changes while the server runs (the portal backend: the desktop allows, or
/// ends, its session): what `handle(_:)` makes of the backend's reports.
extension ConnectionHub {
    /// The status `control` takes when the backend reports `status` (`HubInput.controlStatusChanged`),
    /// said on the terminal; nil when nothing changes (the same status, or no backend).
    private func controlStatus(after status: ControlBackendStatus) -> ControlContext.Status? {
        guard let backendName else { return nil }
        let updated: ControlContext.Status
        switch status {
        case .active: updated = .active(backend: backendName)
        case .inactive(let reason), .notAllowed(let reason): updated = .inactive(reason: reason)
        }
        guard updated != control.status else { return nil }
        switch status {
        case .active: logger.notice("control is on: the phone drives this computer through \(backendName)")
        case .inactive(let reason): logger.warning("control is off: \(reason)")
        // The person has not allowed it (yet): their choice, not a fault.
        case .notAllowed(let reason): logger.notice("control is off: \(reason)")
        }
        return updated
    }
}

/// The conformance mode (`ServerConfiguration.conformanceEcho`, test only).
extension ConnectionHub {
    /// A complete text message goes back as it came, once its UTF-8 is checked (1007 otherwise,
    /// like the protocol session); no session, no hello deadline, no rate limit of its own.
    private func echo(_ connection: Connection, now: Double) {
        guard String(validating: connection.message, as: UTF8.self) != nil else {
            return refuse(connection, .invalidPayload, "text frame is not valid UTF-8")
        }
        transition(connection, .queued(connection.message[...], now: now))
    }
}
