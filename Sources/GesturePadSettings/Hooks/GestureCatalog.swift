import GestureEngine

/// What the configuration may name about each gesture: its own fields (GESTURES.md), derived
/// from `GestureEvent.forEachField` so the list can never drift from the engine's model.
public enum GestureCatalog {
    /// The fields every event has that a placeholder or environment variable may use.
    /// (`session` is deliberately absent from placeholders: it is text, not a number or a name.)
    public static let commonFields: [String] = ["gesture", "phase", "t", "x", "y", "pointers"]

    /// The gesture's own field names, in GESTURES.md order.
    public static func ownFields(of kind: GestureKind) -> [String] {
        var names: [String] = []
        sampleEvent(kind).forEachField { name, _ in names.append(name.description) }
        return names
    }

    /// The phases the gesture can have.
    public static func phases(of kind: GestureKind) -> [GesturePhase] {
        kind.isContinuous ? GesturePhase.allCases : [.ended]
    }

    /// An event of `kind` with zero values, to enumerate its field names.
    static func sampleEvent(_ kind: GestureKind) -> GestureEvent {
        let zeroMotion = MotionFields(
            startX: 0, startY: 0, dx: 0, dy: 0, ddx: 0, ddy: 0, vx: 0, vy: 0,
            predictedX: 0, predictedY: 0, predictedDx: 0, predictedDy: 0)
        let detail: GestureDetail
        switch kind {
        case .press, .hover: detail = .pointer(id: 0, pointerType: .touch)
        case .release: detail = .release(id: 0, inside: true, duration: 0)
        case .end: detail = .end(reason: .release, duration: 0)
        case .tap, .repeat: detail = .count(0)
        case .doubleTap, .singleTapConfirmed: detail = .none
        case .longPress, .timedPress: detail = .duration(0)
        case .drag, .longPressDrag: detail = .motion(zeroMotion)
        case .scroll: detail = .scroll(ScrollFields(dx: 0, dy: 0, ddx: 0, ddy: 0, vx: 0, vy: 0))
        case .swipe: detail = .swipe(SwipeFields(direction: .left, distance: 0, velocity: 0, duration: 0))
        case .pinch: detail = .pinch(scale: 1, velocity: 0)
        case .rotate: detail = .rotate(angle: 0, velocity: 0)
        }
        return GestureEvent(gesture: kind, phase: .ended, t: 0, x: 0, y: 0, pointers: 1, detail: detail)
    }

    /// `GESTUREPAD_` + the field name in upper snake case: `ddx` → `GESTUREPAD_DDX`,
    /// `pointerType` → `GESTUREPAD_POINTER_TYPE`.
    public static func environmentName(_ field: String) -> String {
        var out = "GESTUREPAD_"
        for ch in field {
            if ch.isUppercase { out.append("_") }
            out.append(contentsOf: ch.uppercased())
        }
        return out
    }
}
