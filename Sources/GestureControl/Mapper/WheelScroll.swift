import GestureEngine

/// Two-finger scrolling as the wheel: each `scroll` event's travel in wheel detents, the
/// scroll's `wheelStop` at its end, and kinetic scrolling (docs/control.md "Kinetic
/// scrolling"): a scroll whose finger lifts faster than `kinetic.minimumVelocity` keeps wheeling
/// along `ControlSettings.kinetic` (`ScrollCoast`) until it comes to rest, then sends the
/// scroll's `wheelStop`. Any `down` on the connection, a cancel, a keyboard or button command,
/// `releaseAll` and turning `kineticScrolling` off stop it at once, with `wheelStop`. A coast
/// holds nothing: it is not `isHolding`, and the release rule does not wait for it.
struct WheelScroll: Sendable {
    /// The most wheel detents one scroll event can make per axis: a guard against absurd
    /// coordinates (a phone screen's whole height at scroll speed 10 is about 400).
    static let maxWheelPerEvent = 1_000.0

    /// A scroll began and has not ended (its end sends `wheelStop`; a coast keeps it open).
    private var scrolling = false
    /// The scroll coasting after its lift, if any.
    private var coast: ScrollCoast? = nil

    /// Whether a coast is running.
    var isCoasting: Bool { coast != nil }

    /// The coast's next wheel step, if one runs.
    var nextDeadline: Double? { coast?.nextDeadline }

    /// `scroll`: each event's `ddx`, `ddy` become wheel detents, `d / scrollDistancePerDetent
    /// × scrollSpeed`, fractional; natural scroll negates (fingers up → `dy > 0`, scroll
    /// down). `ended` / `cancelled` send `wheelStop` — except an `ended` by a finger's lift
    /// (`lifted`) that starts a coast: its `wheelStop` comes when the coast ends.
    mutating func scroll(_ event: GestureEvent, lifted: Bool, settings: ControlSettings, into actions: inout [HostAction]) {
        switch event.phase {
        case .began, .changed:
            guard case .scroll(let fields) = event.detail else { return }
            scrolling = true
            let k = Self.detentsPerPx(settings)
            let dx = Self.clampWheel(fields.ddx * k)
            let dy = Self.clampWheel(fields.ddy * k)
            guard dx != 0 || dy != 0 else { return }
            actions.append(.wheel(dx: dx, dy: dy))
        case .ended, .cancelled:
            guard scrolling else { return }
            if event.phase == .ended, lifted, case .scroll(let fields) = event.detail,
                startCoast(at: event.t, vx: fields.vx, vy: fields.vy, settings: settings)
            {
                return
            }
            scrolling = false
            actions.append(.wheelStop)
        }
    }

    /// The coast's wheel step due at or before `t` (one step for all that is due: the
    /// travel is the curve's, however late the timer), and its `wheelStop` when it comes to
    /// rest. Turned off meanwhile, it stops without wheeling.
    mutating func advance(to t: Double, settings: ControlSettings, into actions: inout [HostAction]) {
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

    /// The contact was cancelled (a running coast already stopped): its scroll ends without a
    /// `wheelStop` of its own (the engine's `scroll` `cancelled` sent it).
    mutating func forget() {
        scrolling = false
    }

    /// `releaseAll`: a scroll in progress (or coasting) is closed with `wheelStop`.
    mutating func close(into actions: inout [HostAction]) {
        if scrolling { actions.append(.wheelStop) }
        scrolling = false
        coast = nil
    }

    /// Wheel detents per CSS px of two-finger travel, signed (natural scroll negates).
    static func detentsPerPx(_ settings: ControlSettings) -> Double {
        let perDetent = settings.scrollDistancePerDetent
        let distance = perDetent.isFinite && perDetent > 0 ? perDetent : 24
        let speed = ControlSettings.scrollSpeedBound.clamped(settings.scrollSpeed) ?? 1
        return (settings.naturalScroll ? -speed : speed) / distance
    }

    private mutating func startCoast(at t: Double, vx: Double, vy: Double, settings: ControlSettings) -> Bool {
        guard settings.kineticScrolling else { return false }
        coast = ScrollCoast(t: t, vx: vx, vy: vy, detentsPerPx: Self.detentsPerPx(settings), curve: settings.kinetic)
        return coast != nil
    }

    private static func clampWheel(_ value: Double) -> Double {
        guard value.isFinite else { return 0 }
        return min(max(value, -maxWheelPerEvent), maxWheelPerEvent)
    }
}
