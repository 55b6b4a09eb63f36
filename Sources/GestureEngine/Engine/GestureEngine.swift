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
    public internal(set) var now: Double?

    var pointers: PointerRoster<TrackedPointer>
    var contact: Contact?
    var velocity = VelocityTracker()
    var hovers: [HoverPointer] = []
    var sequence: TapSequence?
    var lastTapUpT: Double?
    var confirmation: TapConfirmation = .idle
    /// `t` of the held step, if a step is held.
    var stepT: Double?
    /// The deceleration projection factor, ms: `r / (1 − r)`, per (px/ms).
    let projection: Double

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
        let r = min(max(config.decelerationRate, 0), 0.999_999)
        projection = r / (1 - r) / 1000
        hovers.reserveCapacity(4)
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
    func clamp(_ t: Double) -> Double {
        let bounded = t.isNaN ? (now ?? 0) : min(max(t, -Self.timeLimit), Self.timeLimit)
        guard let now else { return bounded }
        return bounded < now ? now : bounded
    }
}
