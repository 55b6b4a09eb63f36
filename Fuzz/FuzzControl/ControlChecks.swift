import FuzzSupport
import GestureControl
import GestureEngine

func check(_ host: ControlHost, _ actions: [HostAction], _ ledger: inout PressLedger, _ context: @autoclosure () -> String) {
    ledger.absorb(actions[...], context())
    invariant(
        ledger.down.isEmpty == !host.mapper.isHolding, "\(context()): isHolding \(host.mapper.isHolding), down \(ledger.down)")
    if let deadline = host.mapper.nextDeadline {
        invariant(deadline.isFinite, "\(context()): mapper deadline \(deadline)")
    }
    for action in actions {
        switch action {
        case .motion(let dx, let dy):
            invariant(abs(dx) <= 1_000_000 && abs(dy) <= 1_000_000, "\(context()): motion \(dx), \(dy)")
        case .wheel(let dx, let dy):
            invariant(dx.isFinite && dy.isFinite, "\(context()): wheel \(dx), \(dy)")
        case .button, .key, .text, .wheelStop:
            break
        }
    }
}
