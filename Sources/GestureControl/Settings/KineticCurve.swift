#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a two-finger scroll coasts after the fingers lift (kinetic scrolling, `ScrollCoast`):
/// the speed decays exponentially, `v(τ) = v₀ · deceleration^τ` with τ in ms after the lift —
/// GTK's kinetic scrolling (`gtkkineticscrolling.c`: `v = v₀ · e^(−friction · t)`, friction
/// `DECELERATION_FRICTION` 4 per second in `GtkScrolledWindow`), the curve GNOME users know
/// from touchpads that report a scroll stop. Plotted and explained in docs/control.md.
///
/// The same form as the engine's `GestureConfig.decelerationRate`, but not its value: that
/// one (0.998 per ms, UIScrollView's) predicts where a drag would end, and coasts twice as
/// long and as far as GTK does.
public struct KineticCurve: Sendable, Hashable {
    /// Speed kept per ms (0 < value < 1). 0.996 ≈ e^(−4/s): GTK's friction of 4 per second,
    /// so a coast travels v₀ / 4 s (a 1,000 px/s flick: 250 px, ten wheel detents).
    public var deceleration: Double = 0.996
    /// Finger speed at the lift (CSS px/s, the scroll event's `vx`, `vy`) below which the
    /// scroll does not coast: fingers coming to rest lift at about 0 (the engine's
    /// `velocityStopTime`), a deliberate flick at 500–3,000. About four detents a second.
    public var minimumVelocity: Double = 100
    /// Speed (CSS px/s of finger travel) at which the coast comes to rest: about two detents
    /// a second, the wheel would click too rarely to look like motion; what is left to travel
    /// then is `stopVelocity` / 4 s, about half a detent. GTK stops at a step below one pixel
    /// per frame, about this speed of content.
    public var stopVelocity: Double = 50
    /// The fastest lift a coast starts from (CSS px/s): faster lifts coast as this one, so a
    /// coast lasts at most ln(8000 / 50) / 4 s ≈ 1.3 s. Android's maximum fling velocity is
    /// 8,000 dp/s.
    public var maximumVelocity: Double = 8_000
    /// Page-clock ms between two wheel steps of a coast: a 60 Hz display frame.
    public var frameInterval: Double = 1_000.0 / 60

    public init() {}

    /// The decay per ms (λ in v(τ) = v₀ · e^(−λτ)) for `deceleration`, or GTK's when
    /// `deceleration` is not strictly between 0 and 1.
    public var decayPerMs: Double {
        let r = deceleration.isFinite && deceleration > 0 && deceleration < 1 ? deceleration : 0.996
        return -log(r)
    }

    /// How long (ms) a coast from `speed` (CSS px/s) lasts until it comes to rest: 0 when
    /// `speed` is not above `stopVelocity`.
    public func duration(fromSpeed speed: Double) -> Double {
        guard speed.isFinite, stopVelocity > 0, speed > stopVelocity else { return 0 }
        return log(speed / stopVelocity) / decayPerMs
    }

    /// The share of a coast's whole travel (to rest at infinity) made between `from` and `to`
    /// ms after the lift: e^(−λ·from) − e^(−λ·to). Travel in px is `v₀ / 1000 / λ` times this.
    public func share(from: Double, to: Double) -> Double {
        let λ = decayPerMs
        return exp(-λ * from) - exp(-λ * to)
    }
}
