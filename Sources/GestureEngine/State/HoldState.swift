/// The timer-driven gestures of a one-finger contact (GESTURES.md "longPress", "repeat",
/// "timedPress"). Each is an enum state; the engine switches on them.
///
/// - longPress: `pending(deadline)` → `began(x, y)` at the deadline when within slop →
///   `off` at release (ended) / cancel / second finger (cancelled); `pending` → `off` when the
///   pointer moves beyond slop (no event).
/// - timedPress: `pending(next)` → `running(next)` at the first tick (began) → `running`
///   at each tick (changed) → `off` at release (ended) / cancel, second finger, beyond slop
///   (cancelled); `pending` → `off` silently.
/// - repeat: `active(next, count)` fires and re-arms → `off` at release, cancel, second
///   finger, beyond slop.
struct HoldState: Sendable {
    enum LongPress: Sendable {
        case off
        case pending(deadline: Double)
        case began(x: Double, y: Double)
    }

    enum TimedPress: Sendable {
        case off
        case pending(next: Double)
        case running(next: Double)
    }

    enum Repeat: Sendable {
        case off
        case active(next: Double, count: Int)
    }

    var longPress: LongPress = .off
    var timedPress: TimedPress = .off
    var repeats: Repeat = .off

    /// Arms every hold timer for a pointer that went down at `t`.
    static func armed(at t: Double, config: GestureConfig) -> HoldState {
        HoldState(
            longPress: .pending(deadline: t + config.longPressDuration),
            timedPress: .pending(next: t + config.timedPressInterval),
            repeats: .active(next: t + config.repeatDelay, count: 0)
        )
    }

    /// The earliest pending deadline and which timer it is.
    var nextTimer: (deadline: Double, timer: EngineTimer)? {
        var best: (deadline: Double, timer: EngineTimer)? = nil
        func consider(_ d: Double, _ timer: EngineTimer) {
            if let b = best, b.deadline < d || (b.deadline == d && b.timer.rawValue < timer.rawValue) { return }
            best = (d, timer)
        }
        if case .pending(let d) = longPress { consider(d, .longPress) }
        switch timedPress {
        case .pending(let d), .running(let d): consider(d, .timedPress)
        case .off: break
        }
        if case .active(let d, _) = repeats { consider(d, .repeat) }
        return best
    }
}

/// The engine's timers, in their order at equal deadlines (GESTURES.md "Order").
enum EngineTimer: Int, Sendable {
    case longPress = 0
    case timedPress = 1
    case `repeat` = 2
    case singleTapConfirmed = 3
}
