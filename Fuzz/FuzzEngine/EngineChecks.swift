import FuzzSupport
import GestureEngine

/// The most events one call may append: two rounds of `maxTicksPerAdvance` timer events,
/// plus what one message makes.
let maxEventsPerCall = 2 * 10_000 + 64

/// `advance(to:)`, then no deadline may be left at or before where the clock went: the
/// server arms its timer at `nextDeadline` and would wake up again at once.
func advance(_ engine: inout GestureEngine, to t: Double, _ events: inout [GestureEvent], _ step: Int) {
    let limit = GestureEngine.timeLimit
    let target = max(engine.now ?? -limit, min(max(t, -limit), limit))
    engine.advance(to: t, into: &events)
    if let deadline = engine.nextDeadline {
        invariant(deadline > target, "step \(step): advance(to: \(t)) left a deadline at \(deadline)")
    }
}

func check(_ engine: GestureEngine, _ events: [GestureEvent], step: Int, lastNow: inout Double) {
    if let deadline = engine.nextDeadline {
        invariant(deadline.isFinite, "step \(step): nextDeadline \(deadline)")
    }
    if let now = engine.now {
        invariant(now.isFinite && now >= lastNow, "step \(step): now \(now) after \(lastNow)")
        lastNow = now
    }
    invariant(events.count <= maxEventsPerCall, "step \(step): \(events.count) events from one call")
    for event in events {
        invariant(event.t.isFinite, "step \(step): \(event.gesture) \(event.phase) at t \(event.t)")
    }
    invariant(engine.pointersDown <= engine.maxPointers, "step \(step): \(engine.pointersDown) pointers down")
}
