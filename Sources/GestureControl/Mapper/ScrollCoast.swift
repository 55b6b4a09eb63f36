/// A two-finger scroll coasting after the lift (kinetic scrolling): the wheel keeps turning
/// with the speed the fingers lifted at, decaying along `KineticCurve`, until it comes to
/// rest. Pure: time is the page clock; `nextDeadline` says when the next wheel step is due,
/// `advance(to:)` makes it.
///
/// Each step wheels the exact travel of the curve since the previous one (its integral), so
/// the coast's whole travel does not depend on when the host's timer fires: a late timer
/// makes one larger step, never a longer or shorter coast.
struct ScrollCoast: Sendable {
    /// Page clock of the lift.
    let start: Double
    /// Wheel detents the whole coast would travel to rest at infinity, per axis
    /// (`v₀ / λ` in detents); each step makes its share (`KineticCurve.share`).
    let reachX: Double
    let reachY: Double
    /// ms from the lift to rest.
    let duration: Double
    let curve: KineticCurve
    /// ms after the lift already wheeled.
    private(set) var done = 0.0
    /// The next wheel step's page-clock time.
    private(set) var nextDeadline: Double

    /// A coast from a scroll lifted at `t` with finger velocity (`vx`, `vy`) in CSS px/s,
    /// turned into wheel detents by `detentsPerPx` (signed: natural scroll negates). Nil when
    /// the lift is not faster than `curve.minimumVelocity` (or a number is not finite).
    init?(t: Double, vx: Double, vy: Double, detentsPerPx: Double, curve: KineticCurve) {
        let speed = (vx * vx + vy * vy).squareRoot()
        guard t.isFinite, speed.isFinite, detentsPerPx.isFinite, detentsPerPx != 0, speed > curve.minimumVelocity
        else { return nil }
        let frame = curve.frameInterval
        guard frame.isFinite, frame > 0 else { return nil }
        // Faster lifts coast as the fastest one, in the same direction.
        let scale = speed > curve.maximumVelocity ? curve.maximumVelocity / speed : 1
        let duration = curve.duration(fromSpeed: speed * scale)
        guard duration > 0 else { return nil }
        // v₀ / λ: px/s → px/ms, over the decay per ms, then detents.
        let reach = scale / 1_000 / curve.decayPerMs * detentsPerPx
        start = t
        reachX = vx * reach
        reachY = vy * reach
        self.duration = duration
        self.curve = curve
        nextDeadline = t + min(frame, duration)
        guard nextDeadline > t, reachX.isFinite, reachY.isFinite else { return nil }
    }

    /// The wheel step due at or before `t`: the travel since the last step, up to `t` (or to
    /// rest). `nil` when no step is due. `finished` when the coast came to rest with it.
    mutating func advance(to t: Double) -> (dx: Double, dy: Double, finished: Bool)? {
        guard t >= nextDeadline else { return nil }
        let now = min(t - start, duration)
        let share = curve.share(from: done, to: now)
        done = now
        let step = (dx: reachX * share, dy: reachY * share)
        guard now < duration else { return (step.dx, step.dy, true) }
        // The next frame after `t` (frames counted from the lift), at the latest the rest; one
        // frame more when rounding put it at `t`.
        var frames = (now / curve.frameInterval).rounded(.down) + 1
        var next = start + min(frames * curve.frameInterval, duration)
        if next <= t {
            frames += 1
            next = start + min(frames * curve.frameInterval, duration)
        }
        // A clock so large that one more frame does not move it: the coast ends here.
        guard next > t else { return (step.dx, step.dy, true) }
        nextDeadline = next
        return (step.dx, step.dy, false)
    }
}
