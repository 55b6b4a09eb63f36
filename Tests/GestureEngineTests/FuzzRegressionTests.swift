import GestureEngine
import Testing

/// Inputs the fuzz targets found (Fuzz/Regressions/, docs/testing.md), as plain tests.
struct FuzzRegressionTests {
    /// Every deadline the engine offers can be reached: advancing to it fires it, also when a
    /// contact begins at the end of the time range (FuzzEngine: down-at-time-limit).
    @Test func deadlinesNearTheTimeLimitAreReachable() {
        for t in [GestureEngine.timeLimit, GestureEngine.timeLimit - 250, -GestureEngine.timeLimit] {
            var d = EngineDriver()
            d.down(1, 100, 100, t: t)
            var rounds = 0
            while let deadline = d.engine.nextDeadline, rounds < 100 {
                rounds += 1
                d.advance(to: deadline)
                let next = d.engine.nextDeadline ?? .infinity
                #expect(next > deadline, "down at \(t): advance(to: \(deadline)) left \(next)")
                if next <= deadline { break }
            }
        }
    }
}
