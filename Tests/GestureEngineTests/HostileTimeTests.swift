import GestureEngine
import Testing

/// Clock values no page would send must not trap or stall the engine (hardening findings 1, 2).
struct HostileTimeTests {
    /// A pointer held down, then a move whose t jumps by 9.3e20 ms: no trap, the timers skip ahead.
    @Test func hugeJumpWhileHeldDoesNotTrap() {
        var d = EngineDriver()
        d.down(1, 100, 100, t: 0)
        d.move(1, 100, 100, t: 9.3e20)
        d.up(1, 100, 100, t: 9.3e20 + 1)
        #expect(d.events.count < 25_000)
        #expect(d.all(.end).count == 1)
        #expect(d.engine.now == GestureEngine.timeLimit)
    }

    /// A down at t = 1e19 (where adding a 100 ms interval no longer moves a Double) fires a bounded
    /// number of timers and returns.
    @Test func downAtHugeTimeTerminates() {
        var d = EngineDriver()
        d.down(1, 100, 100, t: 1e19)
        d.advance(to: 2e19)
        d.up(1, 100, 100, t: 3e19)
        #expect(d.events.count < 25_000)
        #expect(d.engine.nextDeadline.map { $0 <= GestureEngine.timeLimit + 1000 } ?? true)
    }

    /// Negative and infinite times are clamped into the engine's range; NaN keeps the clock.
    @Test func extremeTimesAreClamped() {
        var d = EngineDriver()
        d.down(1, 10, 10, t: -.infinity)
        #expect(d.engine.now == -GestureEngine.timeLimit)
        d.move(1, 12, 10, t: .nan)
        d.flush()
        #expect(d.engine.now == -GestureEngine.timeLimit)
        d.up(1, 12, 10, t: .infinity)
        #expect(d.engine.now == GestureEngine.timeLimit)
        #expect(d.all(.end).count == 1)
    }

    /// Intervals that could not move a deadline (NaN, 0) are replaced before any timer runs.
    @Test func degenerateIntervalsStillAdvance() {
        var d = EngineDriver { $0.repeatInterval = .nan }
        d.down(1, 10, 10, t: 0)
        d.advance(to: 5_000)
        #expect(d.all(.repeat).count == 46)
        var z = EngineDriver { $0.timedPressInterval = 0 }
        z.down(1, 10, 10, t: 0)
        z.advance(to: 5_000)
        #expect(z.all(.timedPress).count <= 20_001)
        #expect(z.engine.nextDeadline.map { $0 > 4_999 } == true)
    }
}
