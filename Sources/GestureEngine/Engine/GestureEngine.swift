/// The per-connection gesture engine: every gesture of GESTURES.md, pure and deterministic.
///
/// Time is an input. `process(_:into:)` takes one message with its page-clock `t`, first fires
/// the timers due at or before it, then handles the message, appending gesture events to the
/// caller's (reused) array. `nextDeadline` tells a host when the next timer is due;
/// `advance(to:into:)` moves the clock there. The server and `replay` are two hosts of the
/// same engine; tests drive it with a virtual clock.
///
/// Consecutive `move` messages with the same `t` are one step: they are applied at once and
/// judged when a message that does not belong to the step arrives, or when a host calls
/// `flush(into:)`.
public struct GestureEngine: Sendable {
    /// The thresholds in force.
    public let config: GestureConfig
    /// Pointers that may be down at once; a `down` beyond is refused.
    public let maxPointers: Int
    /// The surface (for `release.inside`).
    public private(set) var width: Double
    public private(set) var height: Double
    /// The engine's clock: the latest `t` seen or timer fired.
    public private(set) var now: Double?

    /// The fingers down (and those ignored after a cancel until they lift).
    private var pointers: PointerRoster<TrackedPointer>
    /// The contact: from the first finger down to the last finger up.
    private var contact: Contact?
    /// `t` of the held step, if a step is held.
    private var stepT: Double?
    private var taps: TapRecognizer
    private var motion: MotionRecognizer
    private var hovers: HoverTracker

    /// The most timer ticks one `advance` fires before the periodic timers skip ahead (a
    /// client jumping its clock by hours must not make the server emit millions of events).
    /// The default keeps `replay` of a long hold tick by tick; a live session, whose timers
    /// fire as they fall due, sets a much smaller budget (`ProtocolSession.liveTicksPerAdvance`).
    public var maxTicksPerAdvance = GestureEngine.defaultMaxTicksPerAdvance
    public static let defaultMaxTicksPerAdvance = 10_000

    /// The page-clock range the engine works in, ms: every `t` is clamped to ±1e12 where it
    /// enters (`clamp`), so adding the smallest timer interval (0.001 ms) always moves a
    /// deadline and no tick count can overflow an `Int`. The protocol refuses a `t` beyond it
    /// with `bad_field`; the clamp keeps the engine safe for any other host.
    public static let timeLimit = 1e12

    public init(config: GestureConfig = GestureConfig(), width: Double, height: Double, maxPointers: Int = 10) {
        var config = config
        // Periodic timers must move forward: at least 0.001 ms, a finite interval.
        let defaults = GestureConfig()
        config.repeatInterval = config.repeatInterval.isFinite ? max(config.repeatInterval, 0.001) : defaults.repeatInterval
        config.timedPressInterval =
            config.timedPressInterval.isFinite ? max(config.timedPressInterval, 0.001) : defaults.timedPressInterval
        self.config = config
        self.width = width
        self.height = height
        self.maxPointers = max(maxPointers, 1)
        self.pointers = PointerRoster<TrackedPointer>(capacity: self.maxPointers)
        taps = TapRecognizer(config: config)
        motion = MotionRecognizer(config: config)
        hovers = HoverTracker(limit: self.maxPointers, minInterval: config.hoverMinInterval)
    }

    /// The earliest page-clock deadline of a pending timer, if any: always within
    /// ±`timeLimit`, so `advance(to: nextDeadline)` fires it.
    public var nextDeadline: Double? { nextTimer?.deadline }

    /// Whether a move step is held, waiting for more moves with the same `t`.
    public var hasPendingStep: Bool { stepT != nil }

    /// Pointers currently down (not counting those ignored after a cancel).
    public var pointersDown: Int { pointers.count }

    /// Processes one message: fires the timers due at or before its `t` (clamped so it never
    /// goes backwards), then handles the message. A `down` beyond `maxPointers` is refused
    /// without moving the clock.
    public mutating func process(_ input: PointerInput, into events: inout [GestureEvent]) -> EngineResult {
        if case .move(var sample) = input, let held = stepT, clamp(sample.t) == held {
            sample.t = held
            applyMove(sample)
            return .accepted
        }
        if case .down(let sample) = input, pointers.index(of: sample.id) == nil, pointers.count >= maxPointers {
            return .tooManyPointers
        }
        flush(into: &events)
        var t = now ?? 0
        if let time = input.time {
            t = clamp(time)
            advance(to: t, into: &events)
            now = t
        }
        switch input {
        case .down(var s):
            s.t = t
            handleDown(s, into: &events)
        case .move(var s):
            s.t = t
            applyMove(s)
        case .up(var s):
            s.t = t
            handleUp(s, into: &events)
        case .cancel(let id, _):
            handleCancel(id: id, at: t, into: &events)
        case .leave(let id, _):
            handleLeave(id: id, at: t, into: &events)
        case .resize(let w, let h):
            width = w
            height = h
        case .clock:
            break
        }
        return .accepted
    }

    /// Judges a held move step now.
    public mutating func flush(into events: inout [GestureEvent]) {
        guard let t = stepT else { return }
        stepT = nil
        judgeStep(at: t, into: &events)
    }

    /// The connection closed at `t`: fires what is due, then cancels the open contact and
    /// every hover, as a `cancel` of `"all"` would (GESTURES.md "Cancel").
    public mutating func close(at t: Double, into events: inout [GestureEvent]) {
        flush(into: &events)
        let t = clamp(t)
        advance(to: t, into: &events)
        now = t
        handleCancel(id: nil, at: t, into: &events)
    }

    /// Normalises an input time once: into ±`timeLimit` (NaN counts as the current clock),
    /// and never behind the clock.
    private func clamp(_ t: Double) -> Double {
        let bounded = t.isNaN ? (now ?? 0) : min(max(t, -Self.timeLimit), Self.timeLimit)
        guard let now else { return bounded }
        return bounded < now ? now : bounded
    }

    // MARK: - Timers

    /// The earliest pending timer: the contact's hold timers and a pending
    /// `singleTapConfirmed`, ties broken in GESTURES.md "Order".
    ///
    /// A timer due beyond `timeLimit` is never pending: the clock cannot get there (every `t`
    /// is clamped into the range), so a host that armed it would wake up again and again for
    /// a timer `advance` can never fire.
    private var nextTimer: (deadline: Double, timer: EngineTimer)? {
        var best = contact?.hold.nextTimer
        if let deadline = taps.confirmationDeadline {
            if best == nil || deadline < (best?.deadline ?? .infinity) {
                best = (deadline, .singleTapConfirmed)
            }
        }
        guard let best, best.deadline <= Self.timeLimit else { return nil }
        return best
    }

    /// Advances the clock to `t`, firing every timer due at or before it in deadline order
    /// (a held step is judged first). Each timer event carries `t` = its deadline.
    ///
    /// Bounded by construction: at most `maxTicksPerAdvance` timer events, then the periodic
    /// timers skip to their last tick at or before `t`, then at most `maxTicksPerAdvance` more
    /// (with `t` clamped to ±`timeLimit`, each tick moves its deadline by at least 0.001 ms).
    public mutating func advance(to t: Double, into events: inout [GestureEvent]) {
        flush(into: &events)
        let t = clamp(t)
        var ticks = 0
        var skipped = false
        while let due = nextTimer, due.deadline <= t {
            ticks += 1
            if ticks > maxTicksPerAdvance {
                if skipped { break }
                skipTicks(to: t)
                skipped = true
                ticks = 0
                continue
            }
            fire(due.timer, at: due.deadline, into: &events)
            if let current = now { now = max(current, due.deadline) } else { now = due.deadline }
        }
    }

    private mutating func fire(_ timer: EngineTimer, at deadline: Double, into events: inout [GestureEvent]) {
        if case .singleTapConfirmed = timer {
            taps.fireConfirmation(at: deadline, into: &events)
            return
        }
        guard var c = contact, let p = pointers.live.first else { return }
        defer { contact = c }
        switch timer {
        case .longPress:
            c.hold.longPress = .began(x: p.x, y: p.y)
            events.emit(.longPress, .began, t: deadline, x: p.x, y: p.y, pointers: c.maxFingers, .duration(deadline - p.downT))
        case .timedPress:
            let phase: GesturePhase
            switch c.hold.timedPress {
            case .pending: phase = .began
            case .running: phase = .changed
            case .off: return
            }
            c.hold.timedPress = .running(next: deadline + config.timedPressInterval)
            events.emit(.timedPress, phase, t: deadline, x: p.x, y: p.y, pointers: c.maxFingers, .duration(deadline - p.downT))
        case .repeat:
            guard case .active(_, let count) = c.hold.repeats else { return }
            c.hold.repeats = .active(next: deadline + config.repeatInterval, count: count + 1)
            events.emit(.repeat, .ended, t: deadline, x: p.x, y: p.y, pointers: c.maxFingers, .count(count + 1))
        case .singleTapConfirmed:
            break
        }
    }

    /// Too many ticks due at once (the client's clock jumped): the periodic timers skip to
    /// their last tick at or before `t` without emitting the ones in between.
    private mutating func skipTicks(to t: Double) {
        guard var c = contact else { return }
        switch c.hold.timedPress {
        case .running(let next) where next <= t:
            let k = ((t - next) / config.timedPressInterval).rounded(.down)
            c.hold.timedPress = .running(next: next + k * config.timedPressInterval)
        case .running, .pending, .off:
            break
        }
        if case .active(let next, let count) = c.hold.repeats, next <= t {
            let k = ((t - next) / config.repeatInterval).rounded(.down)
            // k ≤ 2e12 / 0.001 = 2e15 within the time limit; clamped anyway, never a trap.
            let skippedTicks = Int(exactly: k) ?? 0
            let total = count > Int.max - skippedTicks ? Int.max : count + skippedTicks
            c.hold.repeats = .active(next: next + k * config.repeatInterval, count: total)
        }
        contact = c
    }

    // MARK: - Fingers

    /// `down`: hover `ended` (if it was hovering), `press`, then what the new finger ended or
    /// cancelled; a new phase starts.
    private mutating func handleDown(_ s: PointerSample, into events: inout [GestureEvent]) {
        if pointers.index(of: s.id) != nil { return }  // already down: ignored
        pointers.unignore(s.id)
        hovers.wentDown(s, into: &events)
        var c: Contact
        if let existing = contact {
            c = existing
            c.maxFingers = max(c.maxFingers, pointers.count + 1)
            events.emit(
                .press, .ended, t: s.t, x: s.x, y: s.y, pointers: c.maxFingers, .pointer(id: s.id, pointerType: s.pointerType))
            motion.end(pointers, at: s.t, phase: .ended, into: &events)
            endHold(&c, at: s.t, release: false, into: &events)
        } else {
            c = Contact(startT: s.t)
            c.maxFingers = 1
            taps.contactBegan()
            motion.contactBegan()
            events.emit(.press, .ended, t: s.t, x: s.x, y: s.y, pointers: 1, .pointer(id: s.id, pointerType: s.pointerType))
            c.hold = .armed(at: s.t, config: config)
        }
        c.lastDownT = s.t
        c.downSumX += s.x
        c.downSumY += s.y
        c.downCount += 1
        pointers.add(TrackedPointer(s))
        motion.begin(pointers, at: s.t)
        contact = c
    }

    /// `up`: `release`, the continuous gestures it ended, then — for the last finger —
    /// `tap`, `doubleTap`, `swipe`, `end` and a `singleTapConfirmed` that waited for it.
    private mutating func handleUp(_ s: PointerSample, into events: inout [GestureEvent]) {
        guard let i = pointers.index(of: s.id), var c = contact else {
            pointers.unignore(s.id)  // the up of an ignored finger ends its ignoring
            return
        }
        pointers[i].move(x: s.x, y: s.y)
        if pointers[i].maxDistance > config.slop { c.allWithinSlop = false }
        let inside = s.x >= 0 && s.x <= width && s.y >= 0 && s.y <= height
        events.emit(
            .release, .ended, t: s.t, x: s.x, y: s.y, pointers: c.maxFingers,
            .release(id: s.id, inside: inside, duration: s.t - pointers[i].downT))
        motion.end(pointers, at: s.t, phase: .ended, into: &events)
        endHold(&c, at: s.t, release: true, into: &events)
        pointers.remove(at: i)
        guard pointers.isEmpty else {
            motion.begin(pointers, at: s.t)
            contact = c
            return
        }
        contact = nil
        let outcome = taps.judge(c, upT: s.t, into: &events)
        motion.judgeSwipe(startT: c.startT, fingers: c.maxFingers, upT: s.t, into: &events)
        events.emit(
            .end, .ended, t: s.t, x: s.x, y: s.y, pointers: c.maxFingers, .end(reason: .release, duration: s.t - c.startT))
        taps.resolve(outcome, at: s.t, into: &events)
    }

    /// `cancel` of a pointer of the contact or `"all"` cancels the whole contact; `"all"`
    /// and a cancel of a hovering pointer's id cancel hover.
    private mutating func handleCancel(id: Int?, at t: Double, into events: inout [GestureEvent]) {
        if let id, pointers.index(of: id) == nil {
            hovers.cancel(id: id, at: t, into: &events)
            return
        }
        let all = id == nil
        guard var c = contact else {
            if all { hovers.cancel(id: nil, at: t, into: &events) }
            return
        }
        motion.end(pointers, at: t, phase: .cancelled, into: &events)
        endHold(&c, at: t, release: false, into: &events)
        if all { hovers.cancel(id: nil, at: t, into: &events) }
        let centroid = pointers.centroid
        events.emit(
            .end, .ended, t: t, x: centroid.x, y: centroid.y, pointers: c.maxFingers,
            .end(reason: .cancel, duration: t - c.startT))
        pointers.ignoreAll()
        contact = nil
        taps.resolve(.notTap, at: t, into: &events)
    }

    /// The one-finger hold gestures end: `longPress` and `timedPress` go `ended` at a release,
    /// `cancelled` otherwise; every hold timer is dropped.
    private mutating func endHold(_ c: inout Contact, at t: Double, release: Bool, into events: inout [GestureEvent]) {
        defer { c.hold = HoldState() }
        // Hold gestures only run in a one-finger contact: they run with that one finger, the
        // first in the table (a second finger is added after this).
        guard let p = pointers.live.first else { return }
        let phase: GesturePhase = release ? .ended : .cancelled
        if case .began = c.hold.longPress {
            events.emit(.longPress, phase, t: t, x: p.x, y: p.y, pointers: 1, .duration(t - p.downT))
        }
        if case .running = c.hold.timedPress {
            events.emit(.timedPress, phase, t: t, x: p.x, y: p.y, pointers: 1, .duration(t - p.downT))
        }
    }

    // MARK: - Steps

    /// Applies one `move` to its pointer (a contact finger or a hovering mouse / pen) and holds
    /// the step open; nothing is judged until the step ends.
    private mutating func applyMove(_ s: PointerSample) {
        if let i = pointers.index(of: s.id) {
            pointers[i].move(x: s.x, y: s.y)
            stepT = s.t
            return
        }
        guard s.pointerType != .touch, !pointers.isIgnored(s.id), hovers.move(s) else { return }
        stepT = s.t
    }

    /// Judges a step: normalises the phase once, then each recognizer compares. Events come
    /// in the order drag, longPressDrag, longPress, scroll, pinch, rotate, timedPress; hover last.
    private mutating func judgeStep(at t: Double, into events: inout [GestureEvent]) {
        if var c = contact {
            motion.sample(pointers, at: t)
            var beyondSlop = false
            for p in pointers.live where p.maxDistance > config.slop { beyondSlop = true }
            if beyondSlop { c.allWithinSlop = false }
            var timedPressCancelled = false
            if c.maxFingers == 1, beyondSlop {
                if case .pending = c.hold.longPress { c.hold.longPress = .off }
                c.hold.repeats = .off
                switch c.hold.timedPress {
                case .running: timedPressCancelled = true
                case .pending, .off: break
                }
                c.hold.timedPress = .off
            }
            motion.step(longPress: c.hold.longPress, at: t, into: &events)
            if timedPressCancelled, let p = pointers.live.first {
                events.emit(.timedPress, .cancelled, t: t, x: p.x, y: p.y, pointers: c.maxFingers, .duration(t - p.downT))
            }
            contact = c
        }
        hovers.step(at: t, into: &events)
    }

    /// `leave`: a hovering pointer left the surface.
    private mutating func handleLeave(id: Int, at t: Double, into events: inout [GestureEvent]) {
        hovers.leave(id: id, at: t, into: &events)
    }
}
