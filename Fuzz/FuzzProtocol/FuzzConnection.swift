import FuzzSupport
import GestureControl
import GestureEngine
import GestureProtocol

/// One connection's session with the server's clock, driven as `ConnectionHub` drives it,
/// checking the invariants after every call: once the session asked to close, the hub's
/// connection is `closing` and calls it no more (no input, no timer) until the connection is
/// gone and it calls `close` once.
struct FuzzConnection {
    var session: ProtocolSession
    var output = SessionOutput()
    /// The server clock, ms.
    private(set) var now = 0.0
    private let backwards: Bool
    private var ledger = PressLedger()
    /// The session asked to close, or `close` ran: the hub calls nothing more but the close.
    private var finished = false
    private var closed = false
    private var decoded: [DecodedMessage] = []
    /// The last `held` frame without its `until` (nothing held until one came).
    private var toldHeld = FuzzConnection.heldFrame(HeldSnapshot())

    /// How many times a timer may fire at one instant before it counts as spinning.
    static let maxFiresPerInstant = 8

    init(_ script: ProtocolScript) {
        session = ProtocolSession(
            sessionID: "fuzz", connectionNumber: 1, config: GestureConfig(), limits: script.limits, control: script.control)
        backwards = script.backwards
        session.start(at: now)
    }

    /// The range of the server clock: `CLOCK_MONOTONIC` in ms, 0 at boot; 1e12 ms is 31 years
    /// of uptime. (Beyond about 1e17 ms a Double cannot add a 100 ms timer to it.)
    static let clockRange = 0.0...1e12

    /// The server clock moves by `delay` ms, anywhere in its range (never back unless the
    /// script allows it).
    mutating func move(by delay: Double) {
        let next = min(max(now + delay, Self.clockRange.lowerBound), Self.clockRange.upperBound)
        guard next.isFinite else { return }
        now = backwards ? next : max(now, next)
    }

    mutating func receive(_ bytes: ArraySlice<UInt8>) {
        guard !finished else { return }
        let frame = Array(bytes)
        // The proof handshake's answer is read by the same scanner (`AuthMessage`): every frame
        // is tried as one too; it may refuse it, never trap, and what it takes reads back the same.
        HandshakeChecks.check(frame)
        output.removeAll()
        session.receive(text: frame.span, arrival: now, into: &output)
        check("receive")
    }

    /// Fires the session's timer at `time` (the server fires at `max(now, wakeup)`).
    mutating func fire(at time: Double) {
        guard !finished else { return }
        output.removeAll()
        session.fire(now: time, into: &output)
        check("fire")
    }

    /// Fires the timer while it is due, as the server's timer does; it must not stay due.
    mutating func fireDueTimers() {
        var fires = 0
        while !finished, let wakeup = session.nextWakeup, wakeup <= now {
            fires += 1
            invariant(fires <= Self.maxFiresPerInstant, "timer due at \(wakeup) still due after \(fires - 1) fires at \(now)")
            fire(at: max(now, wakeup))
        }
    }

    /// The connection is gone (the hub removes it: a second close never reaches the session).
    mutating func close() {
        guard !closed else { return }
        output.removeAll()
        session.close(now: now, into: &output)
        closed = true
        finished = true
        check("close")
        invariant(ledger.down.isEmpty, "still held after close: \(ledger.down)")
        invariant(ledger.contacts.isEmpty, "fingers still on the touchpad after close: \(ledger.contacts)")
        invariant(session.nextWakeup == nil, "a wakeup after close")
    }

    static let heldPrefix = Array(#"{"type":"held","#.utf8)

    /// The `held` frame of `snapshot`, without `until`.
    static func heldFrame(_ snapshot: HeldSnapshot) -> [UInt8] {
        var out: [UInt8] = []
        var plain = snapshot
        plain.until = nil
        MessageEncoder.appendHeld(plain, to: &out)
        return out
    }

    /// A `held` frame with its `until` cut out; `until` must be a number, and only with a button.
    static func withoutUntil(_ frame: [UInt8], _ call: String) -> [UInt8] {
        let key = Array(#","until":"#.utf8)
        guard let start = frame.indices.first(where: { frame[$0...].starts(with: key) }) else { return frame }
        let number = frame[(start + key.count)..<(frame.count - 1)]
        invariant(number.first != UInt8(ascii: "n"), "\(call): held with until null")
        invariant(!frame.starts(with: Array(#"{"type":"held","buttons":[]"#.utf8)), "\(call): until with no button held")
        return Array(frame[..<start]) + [UInt8(ascii: "}")]
    }

    /// The invariants after one call.
    private mutating func check(_ call: String) {
        if output.close != nil { finished = true }
        var gestures = 0
        for index in output.frames.frames.indices {
            let bytes = Array(output.frames.frameBytes(index))
            invariant(String(validating: bytes, as: UTF8.self) != nil, "\(call) wrote a frame that is not UTF-8")
            if case .invalid(let error) = FrameDecoder.decode(bytes.span, into: &decoded) {
                invariant(false, "\(call) wrote a frame that is not a JSON object (\(error.message)): \(bytes)")
            }
            if output.frames.frames[index].kind == .gesture { gestures += 1 }
            if bytes.starts(with: Self.heldPrefix) { toldHeld = Self.withoutUntil(bytes, call) }
        }
        invariant(gestures == output.events.count, "\(call): \(output.events.count) events, \(gestures) gesture frames")
        ledger.absorb(output.actions[...], call)
        if !finished {
            // The page hears of a press when it is made; the playout may hand it over later.
            var planned = ledger
            planned.absorb(session.pendingActions, "\(call), waiting in the playout")
            let expected = Self.heldFrame(planned.snapshot)
            invariant(
                toldHeld == expected,
                "\(call): the page was told \(String(decoding: toldHeld, as: UTF8.self)), the computer holds \(ledger.down) and will hold \(planned.down)"
            )
        }
        if let wakeup = session.nextWakeup {
            invariant(wakeup.isFinite, "\(call): nextWakeup \(wakeup)")
        } else if !finished {
            invariant(ledger.down.isEmpty, "\(call): \(ledger.down) held with no wakeup to release it")
            invariant(ledger.contacts.isEmpty, "\(call): fingers \(ledger.contacts) down with no wakeup to lift them")
        }
    }
}
