import GestureEngine
import Testing

@testable import GestureProtocol

/// `t` beyond the documented range is refused where it enters (hardening findings 1, 2).
struct HostileTimeSessionTests {
    /// The audit's three messages (hello, down, move with t + 9.3e20) get bad_field, not a crash.
    @Test func hugeJumpIsRefused() {
        var session = ProtocolSession(sessionID: "s", config: GestureConfig(), limits: ProtocolLimits())
        var output = SessionOutput()
        session.receive(TestSupport.hello, at: 0, into: &output)
        session.receive(TestSupport.down(1, t: 10), at: 1, into: &output)
        output.removeAll()
        session.receive(TestSupport.move(1, t: 9.3e20, x: 120), at: 2, into: &output)
        #expect(TestSupport.errorCodes(output) == ["bad_field"])
        let message = TestSupport.frames(output).first?.1["message"] as? String
        #expect(message == #"move: field "t" must be within ±1e12 ms"#)
        #expect(output.close == nil)
    }

    /// A down at t = 1e19, a ping, a leave and a cancel beyond 1e12 are refused the same way;
    /// exactly ±1e12 is accepted.
    @Test func everyTimeFieldIsBounded() {
        var session = ProtocolSession(sessionID: "s", config: GestureConfig(), limits: ProtocolLimits())
        var output = SessionOutput()
        session.receive(TestSupport.hello, at: 0, into: &output)
        output.removeAll()
        session.receive(TestSupport.down(1, t: 1e19), at: 1, into: &output)
        session.receive(#"{"type":"ping","t":-2e12}"#, at: 1, into: &output)
        session.receive(#"{"type":"leave","id":1,"t":1.5e12}"#, at: 1, into: &output)
        session.receive(#"{"type":"cancel","id":"all","t":1e13}"#, at: 1, into: &output)
        #expect(TestSupport.errorCodes(output) == ["bad_field", "bad_field", "bad_field", "bad_field"])
        output.removeAll()
        session.receive(TestSupport.down(1, t: 1e12), at: 2, into: &output)
        session.receive(#"{"type":"ping","t":-1e12}"#, at: 2, into: &output)
        #expect(TestSupport.errorCodes(output).isEmpty)
        // Its timers fall beyond the time limit, so none is armed (FuzzRegressionTests); any wakeup is finite.
        #expect(session.nextWakeup.map { $0.isFinite } ?? true)
    }
}
