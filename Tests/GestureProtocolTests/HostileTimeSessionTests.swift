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

    /// A finger held while `t` jumps 1,000 s: the live session emits at most two budgets of
    /// timer events (the repeat count still says how long it was held); replay of a 30 s hold
    /// still gives every repeat.
    @Test func clockJumpWithAHeldFingerIsABoundedBurst() {
        var session = ProtocolSession(sessionID: "s", config: GestureConfig(), limits: ProtocolLimits())
        var output = SessionOutput()
        session.receive(TestSupport.hello, at: 0, into: &output)
        session.receive(TestSupport.down(1, t: 0), at: 1, into: &output)
        output.removeAll()
        session.receive(#"{"type":"ping","t":1000000}"#, at: 2, into: &output)
        let repeats = output.events.filter { $0.gesture == .repeat }
        #expect(ProtocolLimits.liveTicksPerAdvance == 100)
        #expect(output.events.count <= 2 * 100 + 8)  // two budgets, and the few one-shot timers
        #expect(repeats.count > 1)
        if case .count(let count) = repeats.last?.detail {
            #expect(count == 9_996)  // (1,000,000 − repeatDelay 500) / repeatInterval 100 + 1
        } else {
            Issue.record("no repeat count")
        }
        var host = ReplayHost()
        let (out, _) = replay([TestSupport.hello, TestSupport.down(1, t: 0), #"{"type":"ping","t":30000}"#], host: &host, finish: false)
        #expect(out.filter { $0.contains(#""gesture":"repeat""#) }.count == 296)
    }
}
