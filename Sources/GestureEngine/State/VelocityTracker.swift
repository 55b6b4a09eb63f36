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

    /// The newest sample's time, if any.
    var newestTime: Double? {
        count == 0 ? nil : ring[(head + count - 1) % ring.count].t
    }

    /// The velocities (per second) over the samples within `window` ms of the newest.
    /// With `stopAt` (a release or phase end at that time), every velocity is 0 when the
    /// newest sample is `stopTime` or more older than that moment.
    func velocity(window: Double, stopAt moment: Double? = nil, stopTime: Double = 0) -> MotionVelocity {
        guard count > 1 else { return .zero }
        let capacity = ring.count
        let newest = ring[(head + count - 1) % capacity].t
        if let moment, moment - newest >= stopTime { return .zero }
        // Means first, then the centred sums: numerically stable for large t.
        var n = 0.0
        var mt = 0.0, mx = 0.0, my = 0.0, ms = 0.0, ma = 0.0
        var i = count - 1
        while i >= 0 {
            let s = ring[(head + i) % capacity]
            if newest - s.t > window { break }
            n += 1
            mt += s.t
            mx += s.x
            my += s.y
            ms += s.scale
            ma += s.angle
            i -= 1
        }
        guard n > 1 else { return .zero }
        mt /= n
        mx /= n
        my /= n
        ms /= n
        ma /= n
        var stt = 0.0, stx = 0.0, sty = 0.0, sts = 0.0, sta = 0.0
        var j = count - 1
        while j > i {
            let s = ring[(head + j) % capacity]
            let dt = s.t - mt
            stt += dt * dt
            stx += dt * (s.x - mx)
            sty += dt * (s.y - my)
            sts += dt * (s.scale - ms)
            sta += dt * (s.angle - ma)
            j -= 1
        }
        guard stt > 1e-9 else { return .zero }
        let k = 1000 / stt
        return MotionVelocity(vx: stx * k, vy: sty * k, scale: sts * k, angle: sta * k)
    }
}
