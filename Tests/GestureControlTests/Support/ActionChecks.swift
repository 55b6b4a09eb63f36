import GestureControl

extension HostAction {
    /// A button or key going down or up.
    var isPress: Bool {
        switch self {
        case .button, .key: true
        case .motion, .wheel, .wheelStop, .text, .contact, .touchSurface, .spotlight: false
        }
    }
}

extension Array where Element == HostAction {
    /// Total pointer motion.
    var motion: (dx: Int, dy: Int) {
        var dx = 0
        var dy = 0
        for case .motion(let x, let y) in self {
            dx += x
            dy += y
        }
        return (dx, dy)
    }

    /// Total wheel detents.
    var wheel: (dx: Double, dy: Double) {
        var dx = 0.0
        var dy = 0.0
        for case .wheel(let x, let y) in self {
            dx += x
            dy += y
        }
        return (dx, dy)
    }

    /// The button and key actions only.
    var presses: [HostAction] { filter(\.isPress) }

    /// Problems in the press / release sequence: a button or key pressed while down, or
    /// released while up. Empty when balanced.
    var pressViolations: [String] {
        var ledger = PressLedger()
        ledger.absorb(self[...])
        return ledger.problems
    }

    /// What is still down at the end of the sequence.
    var stillDown: [HostAction] {
        var ledger = PressLedger()
        ledger.absorb(self[...])
        return ledger.down
    }
}

/// What a sequence of actions leaves down, read incrementally, with the problems found.
struct PressLedger {
    /// The `down` actions of what is down.
    private(set) var down: [HostAction] = []
    private(set) var problems: [String] = []
    private var count = 0

    mutating func absorb(_ actions: ArraySlice<HostAction>) {
        for action in actions {
            defer { count += 1 }
            switch action {
            case .button(let b, .down): press(.button(b, .down), "\(b)")
            case .button(let b, .up): release(.button(b, .down), "\(b)")
            case .key(let k, .down): press(.key(k, .down), "\(k)")
            case .key(let k, .up): release(.key(k, .down), "\(k)")
            default: break
            }
        }
    }

    private mutating func press(_ action: HostAction, _ name: String) {
        if down.contains(action) { problems.append("\(count): \(name) pressed twice") }
        down.append(action)
    }

    private mutating func release(_ action: HostAction, _ name: String) {
        if let i = down.firstIndex(of: action) {
            down.remove(at: i)
        } else {
            problems.append("\(count): \(name) released while up")
        }
    }
}
