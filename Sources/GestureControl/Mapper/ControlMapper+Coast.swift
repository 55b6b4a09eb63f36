/// Kinetic scrolling (docs/control.md "Kinetic scrolling"): a two-finger scroll whose finger
/// lifts faster than `kinetic.minimumVelocity` keeps wheeling along `ControlSettings.kinetic`
/// (`ScrollCoast`) until it comes to rest, then sends the scroll's `wheelStop`. Any `down` on
/// the connection (a new touch, a mouse or pen button), a cancel, a keyboard or button
/// command, `releaseAll` (close, silence, control off, server stop) and turning
/// `kineticScrolling` off stop it at once, with `wheelStop`. A coast holds nothing: it is not
/// `isHolding`, and the release rule does not wait for it.
extension ControlMapper {
    /// The scroll ended by a finger's lift at `t` with velocity (`vx`, `vy`) px/s: starts a
    /// coast when kinetic scrolling is on and the lift is fast enough. Returns whether it did.
    mutating func startCoast(at t: Double, vx: Double, vy: Double) -> Bool {
        guard settings.kineticScrolling else { return false }
        coast = ScrollCoast(t: t, vx: vx, vy: vy, detentsPerPx: detentsPerPx, curve: settings.kinetic)
        return coast != nil
    }

    /// The coast's wheel step due at or before `t` (one step for all that is due: the
    /// travel is the curve's, however late the timer), and its `wheelStop` when it comes to
    /// rest. Turned off meanwhile, it stops without wheeling.
    mutating func advanceCoast(to t: Double, into actions: inout [HostAction]) {
        guard var running = coast, t >= running.nextDeadline else { return }
        guard settings.kineticScrolling else {
            stopCoast(into: &actions)
            return
        }
        guard let step = running.advance(to: t) else { return }
        coast = running
        let dx = Self.clampWheel(step.dx)
        let dy = Self.clampWheel(step.dy)
        if dx != 0 || dy != 0 { actions.append(.wheel(dx: dx, dy: dy)) }
        if step.finished { stopCoast(into: &actions) }
    }

    /// Stops a coast at once, if one runs: its scroll ends with `wheelStop`.
    mutating func stopCoast(into actions: inout [HostAction]) {
        guard coast != nil else { return }
        coast = nil
        if scrolling { actions.append(.wheelStop) }
        scrolling = false
    }

    /// Whether a coast is running.
    public var isCoasting: Bool { coast != nil }
}
