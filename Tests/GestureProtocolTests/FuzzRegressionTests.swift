import GestureControl
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

    /// A tap still waiting for its confirmation when the connection closes leaves the closed
    /// session with no wakeup: nobody is left to tell (FuzzProtocol: tap-confirmation-after-close).
    @Test func noWakeupAfterClose() {
        let control = ControlContext(
            status: .active(backend: "x11"), capabilities: ControlCapabilities(characters: .anyUnicode))
        var session = ProtocolSession(
            sessionID: "s", connectionNumber: 1, config: GestureConfig(), limits: ProtocolLimits(), control: control)
        var output = SessionOutput()
        session.receive(TestSupport.hello, at: 0, into: &output)
        session.receive(TestSupport.down(1, t: 0), at: 1e12, into: &output)
        session.receive(TestSupport.up(1, t: 1), at: 1e12, into: &output)
        #expect(session.nextWakeup != nil)
        session.close(now: 1e12, into: &output)
        #expect(session.nextWakeup == nil)
    }

    /// A tap whose lift arrives in a burst right behind its landing: the page is told the left
    /// button is held at once, while the playout still keeps the press for the lift's
    /// `t` spacing; the session shows it as pending, and the timer hands it over
    /// (FuzzProtocol: the page was told held left, the computer held nothing yet).
    @Test(.enabled(if: EngineProbe.isImplemented)) func heldIsToldWhilePlayoutKeepsThePress() {
        var (session, _) = ControlMessageTests.touchpad(HeldSessionTests.context())
        // A stroke first (the playout is made at the first action), then the tap.
        _ = HeldSessionTests.at(0, TestSupport.down(2, t: 1_000), &session)
        for step in stride(from: 10.0, through: 100, by: 10) {
            _ = HeldSessionTests.at(step, TestSupport.move(2, t: 1_000 + step, x: 100 + step), &session)
        }
        _ = HeldSessionTests.at(110, TestSupport.up(2, t: 1_110, x: 200), &session)
        _ = HeldSessionTests.fire(200, &session)
        _ = HeldSessionTests.at(300, TestSupport.down(1, t: 1_300), &session)
        var output = SessionOutput()
        session.receive(TestSupport.up(1, t: 1_350), at: 301, into: &output)
        #expect(HeldSessionTests.held(output).map(HeldSessionTests.fields).first?.0 == ["left"])
        #expect(!output.actions.contains(.button(.left, .down)))
        #expect(session.pendingActions.contains(.button(.left, .down)))
        let due = try? #require(session.nextWakeup)
        #expect(due.map { $0 > 301 && $0 < 400 } == true)
        let handed = HeldSessionTests.fire(due ?? 0, &session)
        #expect(handed.actions.contains(.button(.left, .down)))
        #expect(session.pendingActions.isEmpty)
    }
}
