import GestureControl
import GestureEngine

/// The messages of a connection: one case per accepted message type (PROTOCOL.md "Messages"),
/// after the gate and the decoder had their say.
extension ProtocolSession {
    /// Handles one decoded message of a frame (`index`: its place in a batch) that arrived at
    /// `arrival` (server clock, ms): refuses it, or opens the session, answers, or runs it through
    /// the engine and the mapper.
    mutating func handle(
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
            mediaWatched = true
            output.mediaWatchStarted = true
            errorsInARow = 0
        case .media(let command):
            guard mediaAvailable else {
                refuse(.mediaUnavailable, index: index, &output)
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
    mutating func process(_ input: PointerInput, _ output: inout SessionOutput) -> EngineResult {
        let start = output.events.count
        let result = core?.process(input, events: &output.events, actions: &output.actions) ?? .accepted
        markPlayout(input, output)
        encodeEvents(from: start, &output)
        reportHeld(&output)
        return result
    }
}
