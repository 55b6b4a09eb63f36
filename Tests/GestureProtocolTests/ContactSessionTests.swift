import GestureControl
import GestureEngine
import Testing

@testable import GestureProtocol

/// A touchpad connection with the `touchpad` backend (capabilities that take contacts): its
/// touches pass through, its surface is announced, the release rule lifts its fingers; and
/// `replay --control touchpad` prints the frames the device would get.
struct ContactSessionTests {
    static let native = ControlContext(
        status: .active(backend: "touchpad"), capabilities: .init(characters: .usLayoutASCII, takesContacts: true))

    static func session() -> ProtocolSession {
        ProtocolSession(sessionID: "4", connectionNumber: 4, config: GestureConfig(), limits: ProtocolLimits(), control: native)
    }

    private func contact(_ id: Int, _ phase: TouchContact.Phase, x: Double = 100, y: Double = 100, t: Double) -> HostAction {
        .contact(TouchContact(owner: 4, id: id, phase: phase, x: x, y: y, t: t))
    }

    /// `hello` announces the connection's surface (the device is made before the first touch);
    /// welcome says "touchpad".
    @Test func helloAnnouncesTheSurface() {
        var session = Self.session()
        var output = SessionOutput()
        session.receive(TestSupport.hello, at: 0, into: &output)
        #expect(output.actions == [.touchSurface(owner: 4, width: 400, height: 800)])
        let control = TestSupport.frames(output).first?.1["control"] as? [String: Any]
        #expect(control?["backend"] as? String == "touchpad")
    }

    /// Touches pass through as contacts while the engine still recognizes, draws and logs: a
    /// tap is a `tap` gesture frame but no click.
    @Test func touchesPassThroughGesturesStillRecognized() {
        var session = Self.session()
        var output = SessionOutput()
        session.receive(TestSupport.hello, at: 0, into: &output)
        output.removeAll()
        session.receive(TestSupport.down(1, t: 1_000), at: 10, into: &output)
        session.receive(TestSupport.up(1, t: 1_060), at: 70, into: &output)
        session.fire(now: 1_000, into: &output)
        #expect(output.actions == [contact(1, .down, t: 1_000), contact(1, .up, t: 1_060)])
        #expect(output.events.contains { $0.gesture == .tap })
    }

    /// A connection that falls silent with a finger down has it lifted; one that closes too.
    @Test func releaseRuleLiftsFingers() {
        var session = Self.session()
        var output = SessionOutput()
        session.receive(TestSupport.hello, at: 0, into: &output)
        session.receive(TestSupport.down(1, t: 1_000), at: 10, into: &output)
        output.removeAll()
        let silence = ControlSettings().releaseAfterSilence
        session.fire(now: 10 + silence - 1, into: &output)
        #expect(!output.actions.contains(contact(1, .cancel, t: 1_000)))
        session.fire(now: 10 + silence, into: &output)
        #expect(output.actions.contains(contact(1, .cancel, t: 1_000)))
        var closing = Self.session()
        var closed = SessionOutput()
        closing.receive(TestSupport.hello, at: 0, into: &closed)
        closing.receive(TestSupport.down(2, t: 500), at: 10, into: &closed)
        closed.removeAll()
        closing.close(now: 20, into: &closed)
        #expect(closed.actions == [contact(2, .cancel, t: 500)])
    }

    /// Replay with the touchpad's routing prints the surface and, per frame, each slot's
    /// change with its tracking id and the fingers on the touchpad after it; fingers that move
    /// with one `t` are one frame.
    @Test func replayPrintsTheFrames() {
        var host = ReplayHost(control: ControlSettings(), routing: .contacts(owner: 0))
        let (out, err) = replay(
            [
                TestSupport.hello, TestSupport.down(1, t: 1_000), TestSupport.down(2, t: 1_000, x: 200),
                #"[{"type":"move","id":1,"x":110,"y":100,"t":1016,"pointerType":"touch"},"#
                    + #"{"type":"move","id":2,"x":210,"y":100,"t":1016,"pointerType":"touch"}]"#,
                TestSupport.up(1, t: 1_030, x: 110), TestSupport.up(2, t: 1_031, x: 210),
            ], host: &host)
        #expect(err.isEmpty)
        #expect(
            out == [
                #"{"action":"surface","t":0,"width":400,"height":800}"#,
                #"{"action":"contact","t":1000,"slot":0,"trackingId":0,"x":100,"y":100,"fingers":2}"#,
                #"{"action":"contact","t":1000,"slot":1,"trackingId":1,"x":200,"y":100,"fingers":2}"#,
                #"{"action":"contact","t":1016,"slot":0,"trackingId":0,"x":110,"y":100,"fingers":2}"#,
                #"{"action":"contact","t":1016,"slot":1,"trackingId":1,"x":210,"y":100,"fingers":2}"#,
                #"{"action":"contact","t":1030,"slot":0,"trackingId":-1,"x":110,"y":100,"fingers":1}"#,
                #"{"action":"contact","t":1031,"slot":1,"trackingId":-1,"x":210,"y":100,"fingers":0}"#,
            ])
    }
}
