/// The input of a phase normalised once per step (Hammer.js' compute-input-data idea):
/// centroid, finger distance (span) and the unwrapped finger angle, against the phase's
/// start. Recognizers only compare these with thresholds.
struct PhaseGeometry: Sendable {
    /// Fingers down in this phase.
    private(set) var fingers = 0
    private(set) var startX = 0.0
    private(set) var startY = 0.0
    private(set) var startSpan = 0.0
    /// Centroid now.
    private(set) var x = 0.0
    private(set) var y = 0.0
    /// Finger distance now (two-finger phases).
    private(set) var span = 0.0
    /// Angle change since the start, degrees, clockwise positive, unwrapped past ±180.
    private(set) var angle = 0.0
    private var rawAngle = 0.0

    var dx: Double { x - startX }
    var dy: Double { y - startY }
    /// Distance of the centroid from the start.
    var travel: Double { Angle.length(dx: dx, dy: dy) }
    /// Finger distance now / at the start (1 when that was 0).
    var scale: Double { startSpan > 0 ? span / startSpan : 1 }
    /// |span change| since the start.
    var spanChange: Double { abs(span - startSpan) }

    var sample: MotionSample { MotionSample(t: 0, x: x, y: y, scale: scale, angle: angle) }

    /// Starts a phase from the fingers' current positions.
    mutating func begin(_ pointers: PointerRoster<TrackedPointer>) {
        fingers = pointers.count
        angle = 0
        measure(pointers)
        startX = x
        startY = y
        startSpan = span
    }

    /// Re-measures after pointers moved.
    mutating func update(_ pointers: PointerRoster<TrackedPointer>) {
        let previous = rawAngle
        measure(pointers)
        if pointers.count == 2 { angle += Angle.delta(from: previous, to: rawAngle) }
    }

    private mutating func measure(_ pointers: PointerRoster<TrackedPointer>) {
        let c = pointers.centroid
        x = c.x
        y = c.y
        if pointers.count == 2 {
            let a = pointers[0]
            let b = pointers[1]
            span = Angle.length(dx: b.x - a.x, dy: b.y - a.y)
            rawAngle = Angle.degrees(dx: b.x - a.x, dy: b.y - a.y)
        } else {
            span = 0
            rawAngle = 0
        }
    }
}
