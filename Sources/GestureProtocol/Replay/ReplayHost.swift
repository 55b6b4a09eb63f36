import GestureControl
import GestureEngine

/// The host behind `gesturepad replay` (PROTOCOL.md "Replay"), pure: it takes the lines of a
/// trace and answers with the bytes for stdout and stderr.
///
/// It shares decoding and the hello / observer rules with `ProtocolSession`, but its clock is
/// virtual: the `t` of the accepted messages (a refused message does not move it). The engine
/// fires the timers due at or before a message's `t` before the message itself. Lines are not
/// flushed one by one: same-`t` moves on consecutive lines are one step. No connection limits
/// apply (there is no connection). A recorder's note line (`TraceFormat`) is printed on stderr.
///
/// With control settings (`replay --actions`), the control mapping runs too, and the host
/// prints the actions it takes instead of the gestures (never touching the computer).
public struct ReplayHost: Sendable {
    /// The session id printed in every gesture message.
    public static let sessionID = "replay"

    public let config: GestureConfig
    public let maxPointers: Int
    /// The virtual clock: the latest `t` of an accepted message.
    public private(set) var clock: Double? = nil

    private var gate = ConnectionGate()
    /// Set: print the control mapping's actions instead of gestures.
    public let control: ControlSettings?
    /// Mapped touches, or contacts of a native touchpad (`--control touchpad`).
    public let routing: TouchRouting
    private var contacts = ReplayContacts()
    private var core: TouchpadCore? = nil
    private var decoded: [DecodedMessage] = []
    private var events: [GestureEvent] = []
    private var actions: [HostAction] = []
    private let sessionLiteral = MessageEncoder.sessionLiteral(ReplayHost.sessionID)

    public init(
        config: GestureConfig = GestureConfig(), maxPointers: Int = ProtocolLimits().maxPointers,
        control: ControlSettings? = nil, routing: TouchRouting = .gestures
    ) {
        self.config = config
        self.maxPointers = maxPointers
        self.control = control
        self.routing = routing
    }

    /// Replays line `number` (1-based) of the trace. Gesture messages are appended to `stdout`
    /// one per line; each refusal to `stderr` as `line N: {"type":"error",…}`. Blank lines are
    /// skipped, and so is a byte order mark opening line 1.
    public mutating func feed(line: Span<UInt8>, number: Int, stdout: inout [UInt8], stderr: inout [UInt8]) {
        // A file saved with a UTF-8 byte order mark: skip it (RFC 8259 §8.1 allows ignoring it).
        if number == 1, line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF {
            feed(line: line.extracting(3...), number: number, stdout: &stdout, stderr: &stderr)
            return
        }
        var blank = true
        for i in 0..<line.count where !(line[i] == 0x20 || line[i] == 0x09 || line[i] == 0x0D || line[i] == 0x0A) {
            blank = false
            break
        }
        if blank { return }
        if let note = TraceFormat.noteText(line) {
            // A recorder's note (docs/recording.md): said on stderr, not input.
            JSONWriter.appendASCII("line ", to: &stderr)
            JSONWriter.appendInteger(number, to: &stderr)
            stderr.append(contentsOf: ": note: ".utf8)
            stderr.append(contentsOf: note.utf8)
            stderr.append(0x0A)
            return
        }
        guard UTF8Validator.isValid(line) else {
            report(ProtocolError(.badJSON, "not JSON: the line is not valid UTF-8"), index: nil, number, &stderr)
            return
        }
        let shape = FrameDecoder.decode(line, into: &decoded)
        switch shape {
        case .invalid(let error):
            report(error, index: nil, number, &stderr)
        case .single, .batch:
            for index in decoded.indices {
                handle(decoded[index], index: shape == .batch ? index : nil, number, &stdout, &stderr)
            }
        }
    }

    /// The end of the trace (not a closed connection): judges a held step, then advances the
    /// clock to the last `t` + 1000 ms, firing the timers due by then.
    public mutating func finish(stdout: inout [UInt8]) {
        guard core != nil else { return }
        events.removeAll(keepingCapacity: true)
        actions.removeAll(keepingCapacity: true)
        core?.flush(events: &events, actions: &actions)
        write(&stdout, at: clock ?? 0)
        if let clock {
            fireDeadlines(upTo: clock + 1000, &stdout)
            events.removeAll(keepingCapacity: true)
            actions.removeAll(keepingCapacity: true)
            core?.advance(to: clock + 1000, events: &events, actions: &actions)
            write(&stdout, at: clock + 1000)
        }
        contacts.flush(to: &stdout)
    }

    private mutating func handle(
        _ message: DecodedMessage, index: Int?, _ number: Int, _ stdout: inout [UInt8], _ stderr: inout [UInt8]
    ) {
        if let type = message.type, let refusal = gate.refusal(for: type) {
            // An observer replay prints nothing: its pointer messages are not malformed lines.
            if refusal.code != .observerReadOnly { report(refusal, index: index, number, &stderr) }
            return
        }
        switch message.result {
        case .failure(let error):
            report(error, index: index, number, &stderr)
        case .success(.hello(let hello)):
            gate.open(as: hello.role)
            if hello.role == .touchpad {
                core = TouchpadCore(
                    config: config, width: hello.width, height: hello.height, maxPointers: maxPointers,
                    control: control?.claiming(for: Self.sessionID), routing: routing)
                actions.removeAll(keepingCapacity: true)
                events.removeAll(keepingCapacity: true)
                core?.start(actions: &actions)
                write(&stdout, at: clock ?? 0)
            }
        case .success(.media):
            break  // a replay reaches no media player: nothing to print
        case .success(.settings(let update)):
            if control == nil || core?.apply(update) == nil {
                report(.controlOff(.settings, reason: Self.withoutControl), index: index, number, &stderr)
            }
        case .success(.control(let command)):
            guard control != nil else {
                report(
                    .controlOff(ClientMessage.control(command).type, reason: Self.withoutControl), index: index, number, &stderr)
                return
            }
            actions.removeAll(keepingCapacity: true)
            events.removeAll(keepingCapacity: true)
            core?.command(command, actions: &actions)
            write(&stdout, at: clock ?? 0)
        case .success(.unpair):
            break  // a replay pairs no device
        case .success(.ping(let t, _)):
            run(.clock(t: t), &stdout)
            moveClock(to: t)
        case .success(.input(let input)):
            if run(input, &stdout) == .tooManyPointers {
                report(.tooManyPointers(input, maxPointers: maxPointers), index: index, number, &stderr)
            } else if let t = input.time {
                moveClock(to: t)
            }
        }
    }

    @discardableResult
    private mutating func run(_ input: PointerInput, _ stdout: inout [UInt8]) -> EngineResult {
        guard core != nil else { return .accepted }  // an observer: nothing to recognize
        if let t = input.time { fireDeadlines(upTo: t, &stdout) }
        events.removeAll(keepingCapacity: true)
        actions.removeAll(keepingCapacity: true)
        let result = core?.process(input, events: &events, actions: &actions) ?? .accepted
        write(&stdout, at: max(clock ?? -.infinity, input.time ?? clock ?? 0))
        return result
    }

    /// With control, fires each due deadline on its own so every action is printed with the
    /// `t` it was taken at (a tap's release at its deadline, not at the next message). Gesture
    /// output is unchanged: the engine fires the same timers in the same order either way.
    private mutating func fireDeadlines(upTo t: Double, _ stdout: inout [UInt8]) {
        guard control != nil else { return }
        var rounds = 0
        while let deadline = core?.nextDeadline, deadline <= t, rounds < Self.maxDeadlineRounds {
            rounds += 1
            events.removeAll(keepingCapacity: true)
            actions.removeAll(keepingCapacity: true)
            core?.advance(to: deadline, events: &events, actions: &actions)
            write(&stdout, at: deadline)
        }
    }

    /// Why replay refuses keyboard, button and settings messages without `--actions`.
    static let withoutControl = "replay runs without --actions"

    /// Deadlines fired one by one before one message; the rest fire together (a clock jump).
    static let maxDeadlineRounds = 10_000

    private mutating func moveClock(to t: Double) {
        clock = max(clock ?? t, t)
    }

    private mutating func write(_ stdout: inout [UInt8], at t: Double) {
        if control != nil {
            for action in actions {
                if case .contact(let contact) = action {
                    contacts.add(contact, to: &stdout)
                    continue
                }
                contacts.flush(to: &stdout)
                MessageEncoder.appendAction(action, t: t, to: &stdout)
                stdout.append(0x0A)
            }
            return
        }
        for event in events {
            MessageEncoder.appendGesture(event, sessionLiteral: sessionLiteral, to: &stdout)
            stdout.append(0x0A)
        }
    }

    private func report(_ error: ProtocolError, index: Int?, _ number: Int, _ stderr: inout [UInt8]) {
        JSONWriter.appendASCII("line ", to: &stderr)
        JSONWriter.appendInteger(number, to: &stderr)
        JSONWriter.appendASCII(": ", to: &stderr)
        MessageEncoder.appendError(error, index: index, to: &stderr)
        stderr.append(0x0A)
    }
}
