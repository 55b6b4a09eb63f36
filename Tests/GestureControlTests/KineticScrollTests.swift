import Foundation
import GestureControl
import GestureEngine
import Testing

/// Kinetic scrolling (docs/control.md "Kinetic scrolling"): a two-finger scroll lifted fast
/// keeps wheeling along GTK's curve and comes to rest; a touch, a cancel, a command,
/// `releaseAll` or the setting stop it at once. Virtual clock: each wheel step comes from
/// `advance(to:)` at the deadline the mapper gave.
struct KineticScrollTests {
    static let frame = 1_000.0 / 60
    /// GTK's friction, 4 per second, per ms.
    static let λ = -log(0.996)

    /// Two fingers scroll by (dx, dy) per 16 ms frame for 10 frames from t 10, then lift at
    /// 176 and 180 while still moving (the flick). Returns the lift's velocity (px/s) as the
    /// engine reported it.
    static func flick(_ d: inout MapperDriver, dx: Double = 0, dy: Double = -20) -> (vx: Double, vy: Double) {
        ScrollZoomTests.twoFingers(&d)
        ScrollZoomTests.scroll(&d, dx: dx, dy: dy, steps: 10)  // last move at t 170
        d.up(1, 100 + 10.375 * dx, 300 + 10.375 * dy, t: 176)
        d.up(2, 200 + 10.625 * dx, 300 + 10.625 * dy, t: 180)
        let ended = d.events.last { $0.gesture == .scroll && $0.phase == .ended }
        guard case .scroll(let fields)? = ended?.detail else { return (0, 0) }
        return (fields.vx, fields.vy)
    }

    /// Fires every deadline of the mapper up to `limit`, one at a time; returns the wheel
    /// steps with the time each was made at.
    static func coast(_ d: inout MapperDriver, until limit: Double = 10_000) -> [(t: Double, dx: Double, dy: Double)] {
        var steps: [(t: Double, dx: Double, dy: Double)] = []
        while let deadline = d.mapper.nextDeadline, deadline <= limit {
            _ = d.take()
            d.advance(to: deadline)
            for case .wheel(let dx, let dy) in d.take() { steps.append((deadline, dx, dy)) }
        }
        return steps
    }

    /// A flick up at ~1,250 px/s keeps scrolling down after the lift: a step per 60 Hz frame, each `e^(−4/s · frame)` of the one before, for ln(v₀ / 50) / 4 s; v₀ / 4 s travelled minus the rest below 50 px/s; then one wheelStop.
    @Test func flickCoastsAlongGTKsCurve() {
        var d = MapperDriver()
        let v = Self.flick(&d)
        #expect(abs(v.vy - -1_250) < 1 && v.vx == 0)
        let duringContact = d.actions.wheel.dy
        #expect(!d.actions.contains(.wheelStop), "the scroll's wheelStop waits for the coast")
        #expect(d.mapper.isCoasting && !d.mapper.isHolding)
        let lift = 176.0
        #expect(d.mapper.nextDeadline == lift + Self.frame)
        let steps = Self.coast(&d)
        let speed = 1_250.0
        let duration = log(speed / 50) / Self.λ
        #expect(abs(duration - 803.1) < 0.1)
        #expect(steps.count == Int((duration / Self.frame).rounded(.up)))
        #expect(abs(steps.last!.t - (lift + duration)) < 1e-6)
        // Natural scroll: fingers up, wheel down (dy > 0); the first step is the curve's first frame.
        let perPx = 1.0 / 24
        let reach = speed / 1_000 / Self.λ * perPx
        #expect(abs(steps[0].dy - reach * (1 - exp(-Self.λ * Self.frame))) < 1e-9)
        for (a, b) in zip(steps, steps.dropFirst()).dropLast() {
            #expect(abs(b.dy / a.dy - exp(-Self.λ * Self.frame)) < 1e-9)
            #expect(abs(b.t - a.t - Self.frame) < 1e-6)
        }
        let total = steps.map(\.dy).reduce(0, +)
        #expect(abs(total - (speed - 50) / 1_000 / Self.λ * perPx) < 1e-9)
        #expect(abs(total - 12.47) < 0.01, "(1,250 − 50) px/s ÷ 4/s ≈ 300 px: twelve and a half detents")
        #expect(steps.allSatisfy { $0.dx == 0 && $0.dy > 0 })
        #expect(abs(d.actions.wheel.dy - duringContact - total) < 1e-9)
        #expect(d.actions.last == .wheelStop && d.actions.filter { $0 == .wheelStop }.count == 1)
        #expect(d.mapper.nextDeadline == nil && !d.mapper.isCoasting)
    }

    /// One late timer makes one step with all the travel due: the coast's path does not depend on when the host fires.
    @Test func lateTimerMakesOneStep() {
        var stepwise = MapperDriver()
        _ = Self.flick(&stepwise)
        let steps = Self.coast(&stepwise, until: 476)
        var late = MapperDriver()
        _ = Self.flick(&late)
        _ = late.take()
        late.advance(to: 476)
        let jump = late.take()
        #expect(jump.count == 1)
        #expect(abs(jump.wheel.dy - steps.map(\.dy).reduce(0, +)) < 1e-9)
        #expect(late.mapper.nextDeadline.map { $0 > 476 && $0 <= 476 + Self.frame } == true)
        late.advance(to: 1e9)
        #expect(late.take().last == .wheelStop && late.mapper.nextDeadline == nil)
        _ = Self.coast(&stepwise)
        #expect(abs(late.actions.wheel.dy - stepwise.actions.wheel.dy) < 1e-9, "the same travel in the end")
    }

    /// Direction and scale follow the lift: a diagonal flick coasts on both axes in proportion; no natural scroll flips the sign; scroll speed scales it.
    @Test func directionAndScale() {
        var d = MapperDriver { s in
            s.naturalScroll = false
            s.scrollSpeed = 2
        }
        let v = Self.flick(&d, dx: 15, dy: -20)
        let steps = Self.coast(&d)
        let dx = steps.map(\.dx).reduce(0, +)
        let dy = steps.map(\.dy).reduce(0, +)
        #expect(dx > 0 && dy < 0, "no natural scroll: fingers right and up wheel right and up")
        #expect(abs(dx / dy - v.vx / v.vy) < 1e-9)
        let speed = (v.vx * v.vx + v.vy * v.vy).squareRoot()
        #expect(abs((dx * dx + dy * dy).squareRoot() - (speed - 50) / 1_000 / Self.λ * 2 / 24) < 1e-9)
    }

    /// A lift slower than 100 px/s, or fingers that came to rest first, end the scroll at the lift: wheelStop, no deadline.
    @Test func slowLiftDoesNotCoast() {
        for (perFrame, rest) in [(-1.5, 0.0), (-20.0, 50.0)] {  // ~94 px/s; a fast scroll held still 50 ms
            var d = MapperDriver()
            ScrollZoomTests.twoFingers(&d)
            ScrollZoomTests.scroll(&d, dx: 0, dy: perFrame, steps: 10)
            d.moveFingers([(1, 100, 300 + 10.5 * perFrame), (2, 200, 300 + 10.5 * perFrame)], t: 178)
            d.up(1, 100, 300 + 10.5 * perFrame, t: 178 + rest)
            #expect(d.actions.last == .wheelStop, "\(perFrame) px per frame, rest \(rest) ms")
            #expect(d.mapper.nextDeadline == nil && !d.mapper.isCoasting)
        }
    }

    /// A touch stops the coast at once: wheelStop with the `down`, nothing after; a mouse button too.
    @Test func touchStopsTheCoast() {
        for type in [PointerType.touch, .mouse] {
            var d = MapperDriver()
            _ = Self.flick(&d)
            _ = Self.coast(&d, until: 300)
            _ = d.take()
            d.down(7, 50, 50, t: 305, type, buttons: type == .mouse ? 1 : nil)
            let now = d.take()
            #expect(now.first == .wheelStop && !now.contains { if case .wheel = $0 { true } else { false } })
            #expect(!d.mapper.isCoasting)
            d.advance(to: 2_000)
            #expect(!d.take().contains { if case .wheel = $0 { true } else { false } }, "\(type)")
        }
    }

    /// A key, a button or text stops the coast before it is carried out.
    @Test func commandStopsTheCoast() {
        for command in [
            ControlCommand.key(.named(.pageDown), modifiers: []), .button(.left, .click), .text("a"),
        ] {
            var d = MapperDriver()
            _ = Self.flick(&d)
            _ = Self.coast(&d, until: 250)
            _ = d.take()
            d.command(command)
            let now = d.take()
            #expect(now.first == .wheelStop && now.count > 1)
            #expect(d.mapper.nextDeadline == nil)
        }
    }

    /// A cancel of the page's pointers stops the coast too.
    @Test func cancelStopsTheCoast() {
        var d = MapperDriver()
        _ = Self.flick(&d)
        _ = d.take()
        d.cancel(nil, t: 200)
        #expect(d.take().filter { $0 == .wheelStop }.count == 1)
        #expect(d.mapper.nextDeadline == nil)
    }

    /// The release rule (close, silence, control off) stops a coast with everything else: wheelStop, then no deadline and no wheel.
    @Test func releaseAllStopsTheCoast() {
        var d = MapperDriver()
        _ = Self.flick(&d)
        d.command(.button(.right, .down))
        _ = d.take()
        #expect(d.mapper.isHolding)
        d.releaseAll()
        #expect(d.take() == [.button(.right, .up)])  // the command stopped the coast already
        var coasting = MapperDriver()
        _ = Self.flick(&coasting)
        _ = coasting.take()
        coasting.releaseAll()
        #expect(coasting.take() == [.wheelStop])
        #expect(coasting.mapper.nextDeadline == nil)
        coasting.advance(to: 5_000)
        #expect(coasting.take().isEmpty)
    }

    /// Kinetic scrolling off (portal's default): the lift ends the scroll; turned off during a coast, it stops at the next step without wheeling.
    @Test func settingOff() {
        var off = MapperDriver { $0.kineticScrolling = false }
        _ = Self.flick(&off)
        #expect(off.actions.last == .wheelStop && off.mapper.nextDeadline == nil)
        var d = MapperDriver()
        _ = Self.flick(&d)
        _ = Self.coast(&d, until: 220)
        _ = d.take()
        d.mapper.settings = SettingsUpdate(kineticScrolling: false).applied(to: d.mapper.settings)
        let deadline = d.mapper.nextDeadline ?? 0
        d.advance(to: deadline)
        #expect(d.take() == [.wheelStop])
        #expect(d.mapper.nextDeadline == nil)
    }

    /// A scroll ended by a third finger coming down does not coast; nor does a cancelled one.
    @Test func onlyALiftCoasts() {
        var d = MapperDriver()
        ScrollZoomTests.twoFingers(&d)
        ScrollZoomTests.scroll(&d, dx: 0, dy: -20, steps: 10)
        d.down(3, 300, 300, t: 175)
        #expect(d.actions.contains(.wheelStop) && d.mapper.nextDeadline == nil)
        var cancelled = MapperDriver()
        ScrollZoomTests.twoFingers(&cancelled)
        ScrollZoomTests.scroll(&cancelled, dx: 0, dy: -20, steps: 10)
        cancelled.cancel(nil, t: 175)
        #expect(cancelled.actions.last == .wheelStop && cancelled.mapper.nextDeadline == nil)
    }

    /// The fastest lift is capped at 8,000 px/s: at most ln(160) / 4 s ≈ 1.27 s of coast, in the lift's direction.
    @Test func fastestLiftIsCapped() {
        var d = MapperDriver()
        let v = Self.flick(&d, dy: -400)  // 25,000 px/s
        #expect(v.vy < -20_000)
        let steps = Self.coast(&d)
        #expect(abs(steps.last!.t - 176 - log(8_000.0 / 50) / Self.λ) < 1e-6)
        #expect(abs(steps.map(\.dy).reduce(0, +) - (8_000.0 - 50) / 1_000 / Self.λ / 24) < 1e-9)
    }

    /// Touches passed through to a native touchpad are never scrolled, so they never coast.
    @Test func contactsNeverCoast() {
        var d = MapperDriver(routing: .contacts(owner: 1))
        _ = Self.flick(&d)
        #expect(d.mapper.nextDeadline == nil && !d.actions.contains { if case .wheel = $0 { true } else { false } })
    }

    /// Deadlines stay finite and move past each step even at the clock's limit (±1e12 ms).
    @Test func deadlinesAtTheClocksLimit() {
        var d = MapperDriver()
        let t0 = 1e12 - 2_000
        d.down(1, 100, 400, t: t0)
        d.down(2, 200, 400, t: t0 + 10)
        for i in 1...10 {
            let y = 400 - 20 * Double(i)
            d.moveFingers([(1, 100, y), (2, 200, y)], t: t0 + 10 + 16 * Double(i))
        }
        d.up(1, 100, 192, t: t0 + 176)
        var fired = 0
        while let deadline = d.mapper.nextDeadline {
            #expect(deadline.isFinite)
            d.advance(to: deadline)
            #expect((d.mapper.nextDeadline ?? .infinity) > deadline)
            fired += 1
            if fired > 100 { break }
        }
        #expect(fired == 49 && d.actions.last == .wheelStop)
    }
}
