import GestureControl
import GestureEngine
import Testing

@testable import GestureProtocol

/// Kinetic scrolling through the protocol session, on the server's clock: the coast's steps
/// come from `fire(now:)` at `nextWakeup`; a coast holds nothing, yet the release rule stops
/// it; a page can turn it off for its connection.
struct KineticSessionTests {
    /// A touchpad session on x11, hello at server time 0; page t = server time + 1,000.
    static func session() -> (ProtocolSession, SessionOutput) {
        ControlMessageTests.touchpad(ControlMessageTests.x11)
    }

    /// Two fingers flick up 200 px over 160 ms (1,250 px/s) and lift; page t = arrival + 1,000.
    static func flick(_ session: inout ProtocolSession, _ output: inout SessionOutput) {
        session.receive(
            "[" + TestSupport.down(1, t: 1_000, x: 100, y: 500) + "," + TestSupport.down(2, t: 1_000, x: 200, y: 500) + "]",
            at: 0, into: &output)
        for i in 1...10 {
            let t = 1_000 + 16 * Double(i)
            let y = 500 - 20 * Double(i)
            session.receive(
                "[" + TestSupport.move(1, t: t, x: 100, y: y) + "," + TestSupport.move(2, t: t, x: 200, y: y) + "]",
                at: t - 1_000, into: &output)
        }
        session.receive(
            "[" + TestSupport.up(1, t: 1_166, x: 100, y: 300) + "," + TestSupport.up(2, t: 1_166, x: 200, y: 300) + "]", at: 166,
            into: &output)
    }

    /// Fires the session at each wakeup up to server time `limit`; returns the wheel detents made.
    static func run(_ session: inout ProtocolSession, _ output: inout SessionOutput, until limit: Double) -> Double {
        var dy = 0.0
        while let wakeup = session.nextWakeup, wakeup <= limit {
            output.removeAll()
            session.fire(now: wakeup, into: &output)
            for case .wheel(_, let y) in output.actions { dy += y }
        }
        return dy
    }

    /// After the lift the server wakes every frame and wheels on, then sends wheelStop and sleeps; the connection holds nothing meanwhile.
    @Test func coastRunsOnTheServersTimers() {
        var (session, output) = Self.session()
        Self.flick(&session, &output)
        #expect(!output.actions.contains(.wheelStop))
        let first = session.nextWakeup
        #expect(first.map { abs($0 - (166 + 1_000.0 / 60)) < 1e-9 } == true, "\(String(describing: first))")
        var coasted = 0.0
        var stops = 0
        while let wakeup = session.nextWakeup {
            output.removeAll()
            session.fire(now: wakeup, into: &output)
            for case .wheel(_, let y) in output.actions { coasted += y }
            stops += output.actions.filter { $0 == .wheelStop }.count
            #expect(output.notes.isEmpty, "a coast is not held: the release rule does not fire for it")
            #expect(wakeup < 166 + 1_000, "the coast lasts ln(25) / 4 s ≈ 0.8 s")
        }
        #expect(abs(coasted - 12.47) < 0.01 && stops == 1)
    }

    /// The release rule stops a coast: a connection that holds a button (the bar's `down`), flicks and falls silent gets the button up and wheelStop, and no wheel after.
    @Test func releaseRuleStopsTheCoast() {
        var settings = ControlSettings()
        settings.releaseAfterSilence = 300
        let context = ControlContext(
            status: .active(backend: "x11"), settings: settings, capabilities: .init(characters: .anyUnicode))
        var (session, output) = ControlMessageTests.touchpad(context)
        session.receive(#"{"type":"button","button":"left","action":"down"}"#, at: 0, into: &output)
        Self.flick(&session, &output)
        #expect(Self.run(&session, &output, until: 166 + 299) > 0, "it coasts until the silence")
        output.removeAll()
        session.fire(now: 166 + 300, into: &output)
        guard case .releasedAfterSilence(_, let released)? = output.notes.first else {
            Issue.record("no release after the silence: \(output.notes)")
            return
        }
        #expect(released == [.button(.left, .up), .wheelStop])
        #expect(session.nextWakeup == nil)
    }

    /// The page's settings sheet turns kinetic scrolling off for its connection: the answer says so, and a flick ends at the lift.
    @Test func pageTurnsItOff() {
        var (session, output) = Self.session()
        session.receive(#"{"type":"settings","kineticScrolling":false}"#, at: 0, into: &output)
        #expect(TestSupport.frames(output).first?.1["kineticScrolling"] as? Bool == false)
        session.receive(#"{"type":"settings","kineticScrolling":"yes"}"#, at: 0, into: &output)
        #expect(TestSupport.errorCodes(output) == ["bad_field"])
        output.removeAll()
        Self.flick(&session, &output)
        #expect(output.actions.last == .wheelStop && session.nextWakeup == nil)
    }
}
