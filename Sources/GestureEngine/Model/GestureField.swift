/// The value of one of a gesture's own fields, for encoders, logs and hook placeholders.
public enum GestureFieldValue: Sendable, Hashable {
    case number(Double)
    case integer(Int)
    case bool(Bool)
    /// An enumerated name (`pointerType`, `reason`, `direction`, `ends`).
    case name(String)
}

extension GestureEvent {
    /// Calls `body` with each of the gesture's own fields (not the common ones), in the
    /// order GESTURES.md lists them. Allocation-free: the single place that names fields.
    @inlinable
    public func forEachField(_ body: (StaticString, GestureFieldValue) throws -> Void) rethrows {
        switch detail {
        case .pointer(let id, let pointerType):
            try body("id", .integer(id))
            try body("pointerType", .name(pointerType.name))
        case .release(let id, let inside, let duration):
            try body("id", .integer(id))
            try body("inside", .bool(inside))
            try body("duration", .number(duration))
        case .end(let reason, let duration):
            try body("reason", .name(reason.name))
            try body("duration", .number(duration))
        case .count(let count):
            try body("count", .integer(count))
        case .none:
            break
        case .duration(let duration):
            try body("duration", .number(duration))
        case .motion(let m):
            try body("startX", .number(m.startX))
            try body("startY", .number(m.startY))
            try body("dx", .number(m.dx))
            try body("dy", .number(m.dy))
            try body("ddx", .number(m.ddx))
            try body("ddy", .number(m.ddy))
            try body("vx", .number(m.vx))
            try body("vy", .number(m.vy))
            try body("predictedX", .number(m.predictedX))
            try body("predictedY", .number(m.predictedY))
            try body("predictedDx", .number(m.predictedDx))
            try body("predictedDy", .number(m.predictedDy))
        case .scroll(let s):
            try body("dx", .number(s.dx))
            try body("dy", .number(s.dy))
            try body("ddx", .number(s.ddx))
            try body("ddy", .number(s.ddy))
            try body("vx", .number(s.vx))
            try body("vy", .number(s.vy))
        case .swipe(let s):
            try body("direction", .name(s.direction.name))
            try body("distance", .number(s.distance))
            try body("velocity", .number(s.velocity))
            try body("duration", .number(s.duration))
            try body("ends", .name(s.ends.name))
        case .pinch(let scale, let velocity):
            try body("scale", .number(scale))
            try body("velocity", .number(velocity))
        case .rotate(let angle, let velocity):
            try body("angle", .number(angle))
            try body("velocity", .number(velocity))
        }
    }
}
