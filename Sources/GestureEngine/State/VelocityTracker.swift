/// The velocity samples of one phase in a fixed ring (allocated once per engine), and the
/// least-squares slope of each quantity over the samples within `velocityWindow` of the
/// newest (GESTURES.md "Velocity"; Android VelocityTracker's method).
struct VelocityTracker: Sendable {
    private var ring: [MotionSample]
    private var head = 0
    private(set) var count = 0

    /// Up to `capacity` samples are kept (the oldest are dropped first). 128 covers the
    /// 100 ms window at rates up to 1,280 moves/s.
    init(capacity: Int = 128) {
        ring = Array(repeating: .zero, count: capacity)
    }

    /// Starts a phase with its start sample.
    mutating func reset(start: MotionSample) {
        head = 0
        count = 0
        add(start)
    }

    mutating func add(_ sample: MotionSample) {
        let capacity = ring.count
        ring[(head + count) % capacity] = sample
        if count < capacity {
            count += 1
        } else {
            head = (head + 1) % capacity
        }
    }

    /// The velocities (per second) over the samples within `window` ms of the newest.
    /// With `stopAt` (a release or phase end at that time), every velocity is 0 when the
    /// newest sample is `stopTime` or more older than that moment.
    func velocity(window: Double, stopAt moment: Double? = nil, stopTime: Double = 0) -> MotionVelocity {
        guard count > 1 else { return .zero }
        let capacity = ring.count
        var slot = head + count - 1
        if slot >= capacity { slot -= capacity }
        let newest = ring[slot]
        if let moment, moment - newest.t >= stopTime { return .zero }
        // One pass, newest first, every quantity relative to the newest sample (small values:
        // numerically stable for large t and coordinates); slopes from the normal equations.
        var n = 0.0
        var st = 0.0, stt = 0.0
        var sx = 0.0, sy = 0.0, ss = 0.0, sa = 0.0
        var stx = 0.0, sty = 0.0, sts = 0.0, sta = 0.0
        var remaining = count
        while remaining > 0 {
            let s = ring[slot]
            let dt = s.t - newest.t
            if -dt > window { break }
            let dx = s.x - newest.x
            let dy = s.y - newest.y
            let ds = s.scale - newest.scale
            let da = s.angle - newest.angle
            n += 1
            st += dt
            stt += dt * dt
            sx += dx
            sy += dy
            ss += ds
            sa += da
            stx += dt * dx
            sty += dt * dy
            sts += dt * ds
            sta += dt * da
            remaining -= 1
            slot = slot == 0 ? capacity - 1 : slot - 1
        }
        let denominator = n * stt - st * st  // n² × the variance of t
        guard n > 1, denominator > 1e-9 * n else { return .zero }
        let k = 1000 / denominator
        return MotionVelocity(
            vx: (n * stx - st * sx) * k, vy: (n * sty - st * sy) * k,
            scale: (n * sts - st * ss) * k, angle: (n * sta - st * sa) * k)
    }
}
