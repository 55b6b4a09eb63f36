import GestureControl

extension HostAction {
    /// A button or key going down or up.
    var isPress: Bool {
        switch self {
        case .button, .key: true
        case .motion, .wheel, .wheelStop, .text: false
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
        var down: [HostAction] = []
        var problems: [String] = []
        for (i, action) in enumerated() {
            switch action {
            case .button(let b, .down):
                if down.contains(.button(b, .down)) { problems.append("\(i): \(b) pressed twice") }
                down.append(.button(b, .down))
            case .button(let b, .up):
                if let j = down.firstIndex(of: .button(b, .down)) {
                    down.remove(at: j)
                } else {
                    problems.append("\(i): \(b) released while up")
                }
            case .key(let k, .down):
                if down.contains(.key(k, .down)) { problems.append("\(i): \(k) pressed twice") }
                down.append(.key(k, .down))
            case .key(let k, .up):
                if let j = down.firstIndex(of: .key(k, .down)) {
                    down.remove(at: j)
                } else {
                    problems.append("\(i): \(k) released while up")
                }
            default:
                break
            }
        }
        return problems
    }

    /// What is still down at the end of the sequence.
    var stillDown: [HostAction] {
        var down: [HostAction] = []
        for action in self {
            switch action {
            case .button(let b, .down): down.append(.button(b, .down))
            case .key(let k, .down): down.append(.key(k, .down))
            case .button(let b, .up): down.removeAll { $0 == .button(b, .down) }
            case .key(let k, .up): down.removeAll { $0 == .key(k, .down) }
            default: break
            }
        }
        return down
    }
}
