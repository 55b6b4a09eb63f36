import FuzzSupport
import GestureEngine

// Fuzz target (b): the gesture engine fed structurally valid message sequences with any
// numbers (huge, negative, the ends of `Double`; never NaN), any ids, in any order, under
// any thresholds `GestureConfig.set` accepts. Invariants: no trap; `nextDeadline` finite or
// nil; `now` finite and never going back; every event's `t` finite; at most `maxPointers`
// down; `advance(to: t)` returns with no timer left due at or before `t` and a bounded
// number of events.

LibFuzzer.run { data in
    let script = FuzzScript(data)
    var engine = GestureEngine(
        config: script.config, width: script.width, height: script.height, maxPointers: script.maxPointers)
    var events: [GestureEvent] = []
    var lastNow = -Double.infinity
    var lastT = 0.0
    for (index, step) in script.steps.enumerated() {
        events.removeAll(keepingCapacity: true)
        switch step {
        case .input(let input):
            _ = engine.process(input, into: &events)
            lastT = input.time ?? lastT
        case .frameEnd:
            engine.flush(into: &events)
        case .advance(let t):
            advance(&engine, to: t, &events, index)
            lastT = t
        case .advanceToDeadline:
            if let deadline = engine.nextDeadline {
                advance(&engine, to: deadline, &events, index)
                let next = engine.nextDeadline ?? .infinity
                invariant(next > deadline, "step \(index): advance(to: \(deadline)) left a deadline at \(next)")
            }
        case .command, .settings, .releaseAll:
            continue
        }
        check(engine, events, step: index, lastNow: &lastNow)
    }
    events.removeAll(keepingCapacity: true)
    engine.close(at: lastT + 1_000, into: &events)
    check(engine, events, step: script.steps.count, lastNow: &lastNow)
    invariant(engine.pointersDown == 0, "\(engine.pointersDown) pointers down after close")
}
