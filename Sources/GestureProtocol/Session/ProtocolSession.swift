import GestureControl
import GestureEngine

/// The per-connection protocol state machine (PROTOCOL.md), pure: no I/O, no clock. The
/// server (and tests) feed it whole text messages with their arrival time on the server's
/// monotonic clock (ms); it answers with frames to send, events for the sinks and observers,
/// and whether to close. Call `fire(now:into:)` at `nextWakeup`.
///
/// It keeps no lifecycle of its own: the host owns it (the server's `ConnectionState`). Once a
/// call asked to close (`SessionOutput.close`), the host feeds it nothing more; when the
/// connection is gone it calls `close(now:into:)`, once.
public struct ProtocolSession: Sendable {
    public let sessionID: String
    /// The connection's number, naming its contacts on a native touchpad (`TouchRouting`).
    public let connectionNumber: Int
    public let limits: ProtocolLimits
    public let config: GestureConfig
    /// Whether and how this connection drives the computer (touchpads only); changes with
    /// `updateControl(_:into:)`.
    public private(set) var control: ControlContext

    /// The paired device this connection belongs to, for `welcome.device` (additive,
    /// docs/protocol.md "Pairing"); nil when the server pairs no devices (`--no-auth`). Set by
    /// `greet(as:)`.
    public private(set) var device: DeviceGreeting? = nil
    /// The computer and the server's run, for `welcome.host` / `welcome.run` (additive); nil in a replay.
    public let identity: ServerIdentity?

    /// Whether every message must come sealed (the connection proved its credential:
    /// docs/protocol.md "Sealed messages"); a plain frame is refused whole, `seal_required`,
    /// and nothing in it is read — an attacker on the path can inject no move or click. Only
    /// `requireSealedInput()` sets it, and nothing clears it.
    public private(set) var sealedInput = false

    /// The connection proved its credential: from now on every message must come sealed. One
    /// way: a session never goes back to taking plain frames.
    public mutating func requireSealedInput() { sealedInput = true }

    /// The paired device this connection belongs to (told in `welcome.device`), once pairing
    /// knows it, or renamed.
    public mutating func greet(as device: DeviceGreeting) { self.device = device }

    /// `nil` until a valid `hello` (the gate keeps it).
    public var role: ConnectionRole? { gate.role }
    /// The smallest `arrival − t` seen (PROTOCOL.md "Time"): server time = page time + offset.
    public private(set) var clockOffset: Double? = nil

    private var gate = ConnectionGate()
    /// The engine and control mapper, from a touchpad's `hello` on.
    private var core: TouchpadCore? = nil
    /// Server time of the last message, for releasing what a silent connection holds.
    private var lastArrival: Double = 0
    private var bucket: TokenBucket
    private var errorsInARow = 0
    /// Server time until which a held move step waits for more moves with the same `t`.
    private var holdUntil: Double? = nil
    /// Server time by which a `hello` must have arrived (set by `start(at:)`).
    private var helloDeadline: Double? = nil
    private let sessionLiteral: [UInt8]
    private var decoded: [DecodedMessage] = []
    /// What the page was last told the mapper holds (the `held` notice).
    private var heldReport = HeldReport()
    /// When the host actions are carried out (made at the first action: an idle or observer
    /// connection holds none), and where each input's actions end in the call in progress.
    private var playout: ActionPlayout? = nil
    private var playoutMarks: [PlayoutMark] = []
    /// The media players, as this session was last told of them (`updateMedia`).
    private var media = SessionMedia()

    /// Whether the touchpad's engine was made, at its first pointer message (read by tests;
    /// the state itself stays private).
    var hasEngine: Bool { core?.engine != nil }

    public init(
        sessionID: String, connectionNumber: Int = 0, config: GestureConfig, limits: ProtocolLimits,
        control: ControlContext = .off(reason: "control is off"), identity: ServerIdentity? = nil
    ) {
        self.identity = identity
        self.sessionID = sessionID
        self.connectionNumber = connectionNumber
        self.config = config
        self.limits = limits
        self.control = control
        self.bucket = TokenBucket(ratePerSecond: limits.maxMessagesPerSecond)
        self.sessionLiteral = MessageEncoder.sessionLiteral(sessionID)
    }

    /// The host actions made but not yet handed over (the playout holds them until due): a
    /// `held` notice reports a press as soon as it is made, up to `PlayoutConfig.maxHold`
    /// before the computer carries it out.
    public var pendingActions: ArraySlice<HostAction> { playout?.pending ?? [] }

    /// The server-clock time (ms) at which `fire(now:into:)` must be called next, if any:
    /// the engine's or the mapper's next deadline mapped through the clock offset, the end of a
    /// held step, the silence after which what the connection holds is released, or the next
    /// host actions' playout (`ActionPlayout`).
    public var nextWakeup: Double? {
        if role == nil { return helloDeadline }
        var wakeup = holdUntil
        if let due = playout?.nextDue { wakeup = min(wakeup ?? .infinity, due) }
        if let deadline = core?.nextDeadline, let offset = clockOffset {
            wakeup = min(wakeup ?? .infinity, deadline + offset)
        }
        if core?.isHolding == true {
            wakeup = min(wakeup ?? .infinity, lastArrival + control.settings.releaseAfterSilence)
        }
        return wakeup
    }

    /// The connection opened at `now` (server clock, ms): starts the `hello` deadline
    /// (`ProtocolLimits.helloTimeoutMs`).
    public mutating func start(at now: Double) {
        guard role == nil, limits.helloTimeoutMs > 0 else { return }
        helloDeadline = now + limits.helloTimeoutMs
    }

    /// Handles one complete text message that arrived at `arrival` (server clock, ms);
    /// `sealed`: it came out of a sealed box the host opened (docs/protocol.md "Sealed messages").
    public mutating func receive(
        text: Span<UInt8>, arrival: Double, sealed: Bool = false, into output: inout SessionOutput
    ) {
        lastArrival = max(lastArrival, arrival)
        guard text.count <= limits.maxMessageBytes else {
            requestClose(.messageTooBig, "message of \(text.count) bytes exceeds \(limits.maxMessageBytes)", &output)
            return
        }
        guard UTF8Validator.isValid(text) else {
            requestClose(.invalidPayload, "text frame is not valid UTF-8", &output)
            return
        }
        guard sealed || !sealedInput else {
            refuse(.sealRequiredFrame, index: nil, &output)
            return
        }
        let shape = FrameDecoder.decode(text, into: &decoded)
        let actionStart = output.actions.count
        playoutMarks.removeAll(keepingCapacity: true)
        guard bucket.take(max(decoded.count, 1), at: arrival) else {
            requestClose(.policyViolation, "rate limit of \(limits.maxMessagesPerSecond) messages/s exceeded", &output)
            return
        }
        switch shape {
        case .invalid(let error):
            refuse(error, index: nil, &output)
        case .single, .batch:
            let isBatch = shape == .batch
            for index in decoded.indices {
                handle(decoded[index], index: isBatch ? index : nil, text, arrival, &output)
                // The rest of a batch is not read once the session asked to close.
                guard output.close == nil else { return }
            }
            settleStep(isBatch: isBatch, arrival: arrival, &output)
        }
        admitToPlayout(&output.actions, from: actionStart, arrival: arrival)
    }

    /// The input `input` just added its actions to `output` (`process`).
    private mutating func markPlayout(_ input: PointerInput, _ output: SessionOutput) {
        guard output.actions.count > (playoutMarks.last?.end ?? 0) || playout != nil else { return }
        let settles: Bool
        switch input {
        case .move, .clock: settles = false
        case .down, .up, .cancel, .leave, .resize: settles = true
        }
        playoutMarks.append(PlayoutMark(end: output.actions.count, t: input.time, settles: settles))
    }

    /// Hands the actions made since `start` to the playout, which leaves those due now.
    private mutating func admitToPlayout(_ actions: inout [HostAction], from start: Int, arrival: Double) {
        guard actions.count > start || (playout != nil && !playoutMarks.isEmpty) else { return }
        if playout == nil { playout = ActionPlayout() }
        playout?.admit(&actions, from: start, marks: playoutMarks[...], arrival: arrival)
        playoutMarks.removeAll(keepingCapacity: true)
    }

    /// The server read nothing from this connection from `start` to `end` (server clock, ms):
    /// its send queue was full (the server's back-pressure). What the peer sent in that time
    /// waited in the network and now arrives together: the rate limit counts it as sent over
    /// that time, not as a burst (`TokenBucket.stretch(forPauseOf:resumed:)`).
    public mutating func readingPaused(from start: Double, to end: Double) {
        bucket.stretch(forPauseOf: end - start, resumed: end)
    }

    /// Fires what is due at `now` (server clock, ms): a held step whose hold ended, and the
    /// engine's timers whose deadline (mapped through the offset) is at or before `now`.
    public mutating func fire(now: Double, into output: inout SessionOutput) {
        if role == nil {
            if let deadline = helloDeadline, now >= deadline {
                requestClose(.policyViolation, "no hello within \(Int(limits.helloTimeoutMs)) ms", &output)
            }
            return
        }
        let start = output.events.count
        playout?.release(now: now, into: &output.actions)
        let timerActions = output.actions.count
        if let until = holdUntil, now >= until {
            holdUntil = nil
            core?.flush(events: &output.events, actions: &output.actions)
        }
        if let offset = clockOffset, let deadline = core?.nextDeadline, deadline + offset <= now {
            core?.advance(to: max(now - offset, deadline), events: &output.events, actions: &output.actions)
        }
        playoutMarks.removeAll(keepingCapacity: true)
        admitToPlayout(&output.actions, from: timerActions, arrival: now)
        if core?.isHolding == true, now >= lastArrival + control.settings.releaseAfterSilence {
            playout?.flushAll(now: now, into: &output.actions)
            let first = output.actions.count
            core?.releaseAll(actions: &output.actions)
            output.notes.append(
                .releasedAfterSilence(silence: now - lastArrival, released: Array(output.actions[first...])))
        }
        encodeEvents(from: start, &output)
        reportHeld(&output)
    }

    /// The server's control changed (its backend became active or inactive, e.g. the desktop
    /// ended the portal session): a touchpad drives the computer from now on or stops (its
    /// mapper releases what it held first), and is told with the notice
    /// `{"type":"control","active":…}` (docs/protocol.md). Observers are not told.
    public mutating func updateControl(_ newControl: ControlContext, into output: inout SessionOutput) {
        guard newControl != control else { return }
        control = newControl
        guard role == .touchpad else { return }
        if !newControl.isActive { playout?.flushAll(now: lastArrival, into: &output.actions) }
        core?.setControl(newControl.isActive ? newControl.settings.claiming(for: sessionID) : nil, actions: &output.actions)
        reportHeld(&output)
        output.frames.append(.reply) { MessageEncoder.appendControlNotice(newControl.status, to: &$0) }
    }

    /// The gestures hooks claim changed (a reload): a touchpad's mapper leaves the new ones to
    /// the hooks from its next event on (those of another session's rules are left out).
    public mutating func updateClaims(_ claims: GestureClaims) {
        control.settings.claims = claims
        core?.setClaims(claims.only(session: sessionID))
    }

    /// What the backend can type changed (the desktop's keyboard layout): `text` and
    /// character `key`s are checked against `capabilities` from now on. Nothing is told.
    public mutating func updateCapabilities(_ capabilities: ControlCapabilities) {
        control.capabilities = capabilities
    }

    /// The connection closed at `now` (server clock): judges a held step, then cancels the
    /// open contact and every hover. The engine and the mapper go with the connection (a tap
    /// still waiting for its confirmation is dropped: nobody is left to tell), so no timer is
    /// due after it.
    public mutating func close(now: Double, into output: inout SessionOutput) {
        helloDeadline = nil
        holdUntil = nil
        guard core != nil else { return }
        playout?.flushAll(now: now, into: &output.actions)
        playout = nil
        let start = output.events.count
        core?.flush(events: &output.events, actions: &output.actions)
        let pageNow = clockOffset.map { now - $0 } ?? core?.now ?? 0
        core?.close(at: pageNow, events: &output.events, actions: &output.actions)
        encodeEvents(from: start, &output)
        core = nil
    }

    // MARK: - Shared by the messages (the extension below)

    /// After a frame: judge a pending move step now, or hold it briefly (see `ProtocolLimits.stepHoldMs`).
    private mutating func settleStep(isBatch: Bool, arrival: Double, _ output: inout SessionOutput) {
        guard core?.hasPendingStep == true else {
            holdUntil = nil
            return
        }
        if !isBatch, (core?.pointersDown ?? 0) > 1, limits.stepHoldMs > 0 {
            holdUntil = arrival + limits.stepHoldMs
            return
        }
        holdUntil = nil
        let start = output.events.count
        core?.flush(events: &output.events, actions: &output.actions)
        encodeEvents(from: start, &output)
        reportHeld(&output)
    }

    /// Tells the page what the mapper holds, if that changed (`HeldReport`). Stored properties
    /// all the way down to the version: a computed one on the way copies the core (callgrind:
    /// ~260 instructions more per message).
    private mutating func reportHeld(_ output: inout SessionOutput) {
        guard control.isActive || heldReport.hasMapper else { return }
        if heldReport.moved(to: core?.mapper?.heldVersion) { heldReport.update(core, into: &output.frames) }
    }

    /// The computer's media players changed, or this page just asked to hear them: a page that
    /// asked hears `snapshot` (docs/protocol.md "Media"), and each new cover once.
    public mutating func updateMedia(_ snapshot: MediaSnapshot, now: Double, into output: inout SessionOutput) {
        media.tell(snapshot, role: role, now: now, into: &output.frames)
    }

    private var controlOffReason: String {
        if case .inactive(let why) = control.status { why } else { "" }
    }

    private mutating func noteTime(_ t: Double, arrival: Double) {
        let offset = arrival - t
        clockOffset = min(clockOffset ?? offset, offset)
    }

    private mutating func refuse(_ error: ProtocolError, index: Int?, _ output: inout SessionOutput) {
        output.frames.appendError(error, index: index)
        errorsInARow += 1
        if errorsInARow > limits.maxErrorsInARow {
            requestClose(.policyViolation, "more than \(limits.maxErrorsInARow) errors in a row", &output)
        }
    }

    /// The close reason of a touchpad `hello` from a device paired as an observer (4415).
    static let observerOnlyReason = "this browser was paired to watch the gestures, not as a touchpad"

    private mutating func requestClose(_ code: CloseCode, _ reason: String, _ output: inout SessionOutput) {
        holdUntil = nil
        output.close = (code: code, reason: reason)
    }

    private func encodeEvents(from start: Int, _ output: inout SessionOutput) {
        var i = start
        while i < output.events.count {
            output.frames.appendGesture(output.events[i], sessionLiteral: sessionLiteral)
            i += 1
        }
    }
}

/// The messages of a connection: one case per accepted message type (PROTOCOL.md "Messages"),
/// after the gate and the decoder had their say.
extension ProtocolSession {
    /// Handles one decoded message of a frame (`index`: its place in a batch) that arrived at
    /// `arrival` (server clock, ms): refuses it, or opens the session, answers, or runs it through
    /// the engine and the mapper.
    private mutating func handle(
        _ message: DecodedMessage, index: Int?, _ text: Span<UInt8>, _ arrival: Double, _ output: inout SessionOutput
    ) {
        if let type = message.type, let refusal = gate.refusal(for: type) {
            refuse(refusal, index: index, &output)
            return
        }
        let accepted: ClientMessage
        switch message.result {
        case .failure(let error):
            refuse(error, index: index, &output)
            return
        case .success(let m):
            accepted = m
        }
        if let t = accepted.time { noteTime(t, arrival: arrival) }
        switch accepted {
        case .hello(let hello):
            if hello.role == .touchpad, device?.kind == .observer {
                // Paired to watch (`watch.html`): its key opens no touchpad.
                requestClose(.observerOnly, Self.observerOnlyReason, &output)
                return
            }
            gate.open(as: hello.role)
            helloDeadline = nil
            let status: ControlContext.Status
            if hello.role == .touchpad {
                core = TouchpadCore(
                    config: config, width: hello.width, height: hello.height, maxPointers: limits.maxPointers,
                    control: control.isActive ? control.settings.claiming(for: sessionID) : nil,
                    routing: control.capabilities.touchRouting(owner: connectionNumber),
                    maxTicksPerAdvance: ProtocolLimits.liveTicksPerAdvance)
                core?.start(actions: &output.actions)
                status = control.status
            } else {
                status = .inactive(reason: "observers do not control the computer")
            }
            output.helloRole = hello.role
            output.frames.append(.reply) { [device, identity] in
                MessageEncoder.appendWelcome(
                    session: sessionID, config: config, control: status, device: device, identity: identity, to: &$0)
            }
            // The key goes to the page once, in this welcome; the session keeps it no longer.
            device?.key = nil
            errorsInARow = 0
        case .unpair:
            output.unpairRequested = true
            errorsInARow = 0
        case .media(.watch):
            media.watch()
            output.mediaWatchStarted = true
            // The media thread reads what it does not hear of by itself again (the computer's volume).
            output.mediaCommands.append(.watch)
            errorsInARow = 0
        case .media(let command):
            guard media.canCarryOut(command) else {
                refuse(command.isComputer ? .computerSoundUnavailable : .mediaUnavailable, index: index, &output)
                return
            }
            output.mediaCommands.append(command)
            output.frames.append(.command) { [sessionLiteral] in
                MessageEncoder.appendMediaNotice(command, sessionLiteral: sessionLiteral, to: &$0)
            }
            errorsInARow = 0
        case .ping(let t, let echo):
            process(.clock(t: t), &output)
            output.frames.append(.reply) {
                MessageEncoder.appendPong(frame: text, echo: echo, serverTime: arrival, to: &$0)
            }
            errorsInARow = 0
        case .control(let command):
            if !control.isActive {
                refuse(.controlOff(ClientMessage.control(command).type, reason: controlOffReason), index: index, &output)
            } else if let refusal = control.refusal(for: command) {
                refuse(refusal, index: index, &output)
            } else {
                core?.command(command, actions: &output.actions)
                reportHeld(&output)
                output.notes.append(.command(command))
                output.frames.append(.command) { [sessionLiteral] in
                    MessageEncoder.appendCommandNotice(command, sessionLiteral: sessionLiteral, to: &$0)
                }
                errorsInARow = 0
            }
        case .settings(let update):
            guard control.isActive, let settings = core?.apply(update) else {
                refuse(.controlOff(.settings, reason: controlOffReason), index: index, &output)
                return
            }
            output.frames.append(.reply) { MessageEncoder.appendSettings(settings, to: &$0) }
            errorsInARow = 0
        case .input(let input):
            if process(input, &output) == .tooManyPointers {
                refuse(.tooManyPointers(input, maxPointers: limits.maxPointers), index: index, &output)
            } else {
                errorsInARow = 0
            }
        }
    }

    /// Runs one input through the engine (touchpads only) and encodes its events.
    @discardableResult
    private mutating func process(_ input: PointerInput, _ output: inout SessionOutput) -> EngineResult {
        let start = output.events.count
        let result = core?.process(input, events: &output.events, actions: &output.actions) ?? .accepted
        markPlayout(input, output)
        encodeEvents(from: start, &output)
        reportHeld(&output)
        return result
    }
}
