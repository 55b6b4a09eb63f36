import GestureEngine
import Testing

@testable import GestureProtocol

/// Inputs the fuzz targets found (Fuzz/Regressions/, docs/testing.md), as plain tests.
struct FuzzRegressionTests {
    /// A touch held down at t = 1e12 (the largest t accepted): the session's timer, fired when
    /// due as the server fires it, is not due again at once — the server would spin
    /// (FuzzProtocol: crash-c80b5f9b-time-jumps, down-at-time-limit).
    @Test func timerAtTheTimeLimitDoesNotSpin() {
        var session = ProtocolSession(sessionID: "s", config: GestureConfig(), limits: ProtocolLimits())
        var output = SessionOutput()
        session.receive(TestSupport.hello, at: 0, into: &output)
        session.receive(TestSupport.down(1, t: 1e12), at: 5, into: &output)
        let now = 605.0
        var fires = 0
        while let wakeup = session.nextWakeup, wakeup <= now, fires < 10 {
            fires += 1
            session.fire(now: max(now, wakeup), into: &output)
        }
        #expect(fires < 10)
        #expect(session.nextWakeup.map { $0 > now } ?? true)
    }
}
