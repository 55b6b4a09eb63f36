extension GestureEngine {
    /// The earliest pending timer: the contact's hold timers and a pending
    /// `singleTapConfirmed`, ties broken in GESTURES.md "Order".
    ///
    /// A timer due beyond `timeLimit` is never pending: the clock cannot get there (every `t`
    /// is clamped into the range), so a host that armed it would wake up again and again for
    /// a timer `advance` can never fire.
    var nextTimer: (deadline: Double, timer: EngineTimer)? {
        var best = contact?.hold.nextTimer
        if case .pending(let tap) = confirmation {
            if best == nil || tap.deadline < (best?.deadline ?? .infinity) {
                best = (tap.deadline, .singleTapConfirmed)
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
            if case .pending(let tap) = confirmation {
                confirmation = .idle
                confirm(tap, at: deadline, closing: true, into: &events)
            }
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
}
