/// One velocity sample of a phase: the normalised quantities after a step.
struct MotionSample: Sendable {
    var t: Double
    var x: Double
    var y: Double
    var scale: Double
    var angle: Double

    static let zero = MotionSample(t: 0, x: 0, y: 0, scale: 1, angle: 0)
}

/// Velocities per second of the normalised quantities.
struct MotionVelocity: Sendable {
    var vx: Double
    var vy: Double
    var scale: Double
    var angle: Double

    static let zero = MotionVelocity(vx: 0, vy: 0, scale: 0, angle: 0)
}
