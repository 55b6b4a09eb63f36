import FuzzSupport
import GestureControl
import GestureEngine

// Fuzz target (c): the control mapping fed by the engine the way `TouchpadCore` feeds it,
// with commands, settings changes, timers and `releaseAll` in any order. Invariants: no
// trap; nothing pressed while down, nothing released while up; `isHolding` says whether
// anything is down; after `releaseAll` and after the close nothing is held and no timer is
// left (a coast of kinetic scrolling stops with them: no wheel after); deadlines finite or nil
// and left behind by `advance`; motion within the mapper's guard and wheel amounts finite.

LibFuzzer.run { data in
    let script = FuzzScript(data)
    let engine = GestureEngine(
        config: script.config, width: script.width, height: script.height, maxPointers: script.maxPointers)
    var host = ControlHost(engine: engine, settings: script.settings, routing: script.routing)
    var actions: [HostAction] = []
    var ledger = PressLedger()
    var lastT = 0.0
    for (index, step) in script.steps.enumerated() {
        actions.removeAll(keepingCapacity: true)
        switch step {
        case .input(let input):
            host.process(input, actions: &actions)
            lastT = input.time ?? lastT
        case .frameEnd:
            host.flush(actions: &actions)
        case .advance(let t):
            host.advance(to: t, actions: &actions)
            lastT = t
        case .advanceToDeadline:
            if let deadline = host.nextDeadline {
                host.advance(to: deadline, actions: &actions)
                let next = host.nextDeadline ?? .infinity
                invariant(next > deadline, "step \(index): advance(to: \(deadline)) left a deadline at \(next)")
            }
        case .command(let command):
            host.mapper.handle(command, into: &actions)
        case .settings(let update):
            host.apply(update)
        case .releaseAll:
            host.mapper.releaseAll(into: &actions)
        }
        check(host, actions, &ledger, "step \(index) (\(step))")
        if case .releaseAll = step {
            invariant(ledger.down.isEmpty && !host.mapper.isHolding, "step \(index): held after releaseAll: \(ledger.down)")
            invariant(
                host.mapper.nextDeadline == nil && !host.mapper.isCoasting,
                "step \(index): a timer left after releaseAll: \(String(describing: host.mapper.nextDeadline))")
        }
    }
    actions.removeAll(keepingCapacity: true)
    host.close(at: lastT + 1_000, actions: &actions)
    check(host, actions, &ledger, "close")
    invariant(ledger.down.isEmpty && !host.mapper.isHolding, "held after close: \(ledger.down)")
    invariant(host.mapper.nextDeadline == nil, "a mapper timer left after close")
}
