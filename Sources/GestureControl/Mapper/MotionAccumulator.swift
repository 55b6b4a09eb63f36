/// Turns one pointer's positions (CSS px, page clock ms) into relative pointer motion in
/// whole screen pixels: delta × `speed` × gain, with the sub-pixel remainder carried per axis
/// so that a long slow stroke lands exactly where its travel says.
///
/// - The reference is the position the next delta is measured from. It is set (without
///   motion) by `setReference`, and cleared by `clearReference`; a move without a reference
///   only sets it.
/// - Speed for the adaptive curve is path length / elapsed page time, measured between moves
///   with different `t`. Moves with `dt ≤ 0` (coalesced moves of one touch frame share their
///   `t`; a clock going backwards) reuse the last speed, and their path is counted into the
///   next measurement. A new reference (a finger landing, the finger count changing) keeps
///   its time, so the first move's speed is measured from it (a finger that rests before
///   moving starts slow and precise); a first move with `dt ≤ 0` has no measurement and uses
///   speed 0, the curve's minimum gain — the precise end, never a jump.
/// - Remainders survive reference changes (less than one pixel each; libinput keeps them too).
struct MotionAccumulator: Sendable {
    private(set) var hasReference = false
    private var x = 0.0
    private var y = 0.0
    /// Page time of the last speed measurement.
    private var t = 0.0
    /// Path travelled since `t`.
    private var path = 0.0
    private var speed = 0.0
    private var remainderX = 0.0
    private var remainderY = 0.0

    /// The largest motion, in screen px per axis, one move can produce: a guard against
    /// absurd coordinates, far beyond any screen.
    static let maxStep = 1_000_000.0

    /// Measures the next delta from (x, y) at time t, at speed 0.
    mutating func setReference(x: Double, y: Double, t: Double) {
        guard x.isFinite, y.isFinite else {
            hasReference = false
            return
        }
        hasReference = true
        self.x = x
        self.y = y
        self.t = t.isFinite ? t : 0
        path = 0
        speed = 0
    }

    /// Forgets the reference: the next move only sets it.
    mutating func clearReference() {
        hasReference = false
    }

    /// Forgets the reference and the remainders.
    mutating func reset() {
        self = MotionAccumulator()
    }

    /// The pointer is at (x, y) at time t: appends `.motion` with the whole pixels of the
    /// delta from the reference (nothing when they are zero), and makes (x, y) the reference.
    mutating func move(x: Double, y: Double, t: Double, settings: ControlSettings, into actions: inout [HostAction]) {
        guard hasReference else {
            setReference(x: x, y: y, t: t)
            return
        }
        guard x.isFinite, y.isFinite else { return }
        let dx = x - self.x
        let dy = y - self.y
        self.x = x
        self.y = y
        path += (dx * dx + dy * dy).squareRoot()
        if t.isFinite, t > self.t {
            speed = path / (t - self.t)
            self.t = t
            path = 0
        }
        let factor = Self.factor(speed: speed, settings: settings)
        remainderX = Self.clamp(remainderX + dx * factor)
        remainderY = Self.clamp(remainderY + dy * factor)
        let wholeX = remainderX.rounded(.towardZero)
        let wholeY = remainderY.rounded(.towardZero)
        remainderX -= wholeX
        remainderY -= wholeY
        guard wholeX != 0 || wholeY != 0 else { return }
        actions.append(.motion(dx: Int(wholeX), dy: Int(wholeY)))
    }

    /// `speed` × gain at `speed` (CSS px/ms). A `speed` setting outside its bound
    /// (`ControlSettings.speedBound`) counts as the nearer end of it; a non-finite one as 1.
    static func factor(speed: Double, settings: ControlSettings) -> Double {
        let base = ControlSettings.speedBound.clamped(settings.speed) ?? 1
        switch settings.acceleration {
        case .flat: return base
        case .adaptive: return base * settings.curve.gain(atSpeed: speed)
        }
    }

    private static func clamp(_ value: Double) -> Double {
        guard value.isFinite else { return 0 }
        return min(max(value, -maxStep), maxStep)
    }
}
