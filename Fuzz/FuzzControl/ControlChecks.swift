import FuzzSupport
import GestureControl
import GestureEngine

func check(_ host: ControlHost, _ actions: [HostAction], _ ledger: inout PressLedger, _ context: @autoclosure () -> String) {
    ledger.absorb(actions[...], context())
    invariant(
        (ledger.down.isEmpty && ledger.contacts.isEmpty) == !host.mapper.isHolding,
        "\(context()): isHolding \(host.mapper.isHolding), down \(ledger.down), contacts \(ledger.contacts)")
    if let deadline = host.mapper.nextDeadline {
        invariant(deadline.isFinite, "\(context()): mapper deadline \(deadline)")
    }
    for action in actions {
        switch action {
        case .motion(let dx, let dy):
            invariant(abs(dx) <= 1_000_000 && abs(dy) <= 1_000_000, "\(context()): motion \(dx), \(dy)")
        case .wheel(let dx, let dy):
            invariant(dx.isFinite && dy.isFinite, "\(context()): wheel \(dx), \(dy)")
        case .contact(let contact):
            invariant(
                contact.x.isFinite && contact.y.isFinite && contact.t.isFinite && host.mapper.routing != .gestures,
                "\(context()): contact \(contact)")
        case .touchSurface(_, let width, let height):
            invariant(width.isFinite && height.isFinite, "\(context()): surface \(width) × \(height)")
        case .button, .key, .text, .wheelStop, .spotlight:
            break
        }
    }
}
