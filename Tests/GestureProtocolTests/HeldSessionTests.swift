import GestureControl
import GestureEngine
import Testing

@testable import GestureProtocol

/// The `held` notice (docs/protocol.md): a touchpad whose server drives the computer is told
/// what the server holds for it whenever that changes — after an input, a timer, a command, a
/// silence release, a control change — on the server's clock; page t = arrival + 1,000.
struct HeldSessionTests {
    static func context(_ configure: (inout ControlSettings) -> Void = { _ in }, backend: String = "x11") -> ControlContext {
        var settings = ControlSettings()
        configure(&settings)
        return ControlContext(
            status: .active(backend: backend), settings: settings,
            capabilities: .init(characters: .anyUnicode, takesContacts: backend == "touchpad"))
    }

    /// The `held` frames of an output, parsed; each must be a reply (never sent to observers).
    static func held(_ output: SessionOutput) -> [[String: Any]] {
        TestSupport.frames(output).compactMap { kind, object in
            guard object["type"] as? String == "held" else { return nil }
            #expect(kind == .reply)
            return object
        }
    }

    /// A `held` frame's fields as plain values: buttons, keys, until.
    static func fields(_ frame: [String: Any]) -> ([String], [String], Double?) {
        (frame["buttons"] as? [String] ?? ["?"], frame["keys"] as? [String] ?? ["?"], frame["until"] as? Double)
    }

    /// Feeds a frame at server time `arrival` (page t = arrival + 1,000); returns the `held` frames it made.
    static func at(_ arrival: Double, _ text: String, _ session: inout ProtocolSession) -> [[String: Any]] {
        var output = SessionOutput()
        session.receive(text, at: arrival, into: &output)
        return held(output)
    }

    /// Fires the session at server time `now`; returns its output.
    static func fire(_ now: Double, _ session: inout ProtocolSession) -> SessionOutput {
        var output = SessionOutput()
        session.fire(now: now, into: &output)
        return output
    }

    /// A tap: the left button held until tap t + multiTapInterval (page clock), then at that deadline the server's timer sends the release; moves and pings say nothing.
    @Test(.enabled(if: EngineProbe.isImplemented)) func tapHeldThenReleasedAtItsDeadline() {
        var (session, _) = ControlMessageTests.touchpad(Self.context())
        #expect(Self.at(0, TestSupport.down(1, t: 1_000), &session).isEmpty)
        let tapped = Self.at(50, TestSupport.up(1, t: 1_050), &session)
        #expect(tapped.count == 1)
        #expect(tapped.first.map(Self.fields)! == (["left"], [], 1_350))
        #expect(Self.at(100, #"{"type":"ping","t":1100}"#, &session).isEmpty)
        #expect(session.nextWakeup == 350)
        #expect(Self.held(Self.fire(349, &session)).isEmpty)
        let released = Self.fire(350, &session)
        #expect(released.actions == [.button(.left, .up)])
        #expect(Self.held(released).map(Self.fields).elementsEqual([([], [], nil)]) { $0 == $1 })
        #expect(Self.held(Self.fire(2_000, &session)).isEmpty, "told once")
    }

    /// Tap-and-drag under drag lock with a timeout of 2,500 ms: held while dragging (no `until`), locked at the lift with until = lift t + 2,500, released at that deadline — not after 1,000.
    @Test(.enabled(if: EngineProbe.isImplemented)) func dragLockWithItsTimeout() {
        var (session, _) = ControlMessageTests.touchpad(
            Self.context {
                $0.dragLock = true
                $0.dragLockTimeout = 2_500
            })
        var told: [([String], [String], Double?)] = []
        told += Self.at(0, TestSupport.down(1, t: 1_000), &session).map(Self.fields)
        told += Self.at(50, TestSupport.up(1, t: 1_050), &session).map(Self.fields)
        told += Self.at(200, TestSupport.down(2, t: 1_200), &session).map(Self.fields)
        var moves: [[String: Any]] = []
        for i in 1...10 {
            let step = 10 * Double(i)
            moves += Self.at(200 + step, TestSupport.move(2, t: 1_200 + step, x: 100 + step), &session)
        }
        #expect(moves.isEmpty, "dragging changes nothing held")
        told += Self.at(310, TestSupport.up(2, t: 1_310, x: 200), &session).map(Self.fields)
        let expected: [([String], [String], Double?)] = [(["left"], [], 1_350), (["left"], [], nil), (["left"], [], 3_810)]
        #expect(told.elementsEqual(expected) { $0 == $1 }, "\(told)")
        #expect(session.nextWakeup == 2_810)
        #expect(Self.held(Self.fire(1_310, &session)).isEmpty, "still held 1,000 ms after the lift")
        let released = Self.fire(2_810, &session)
        #expect(released.actions == [.button(.left, .up)])
        #expect(Self.held(released).map(Self.fields).elementsEqual([([], [], nil)]) { $0 == $1 })
    }

    /// The button bar: `down` and `up` are each told, byte for byte; a click holds nothing and says nothing.
    @Test func buttonBarDownAndUp() {
        var (session, output) = ControlMessageTests.touchpad(Self.context())
        session.receive(#"{"type":"button","button":"right","action":"down"}"#, at: 10, into: &output)
        session.receive(#"{"type":"button","button":"middle","action":"click"}"#, at: 20, into: &output)
        session.receive(#"{"type":"button","button":"right","action":"up"}"#, at: 30, into: &output)
        let texts = output.frames.frames.indices.filter { output.frames.frames[$0].kind == .reply }
            .map { String(decoding: output.frames.frameBytes($0), as: UTF8.self) }
        #expect(
            texts == [
                #"{"type":"held","buttons":["right"],"keys":[]}"#, #"{"type":"held","buttons":[],"keys":[]}"#,
            ])
    }

    /// A batch is told per message: a bar `down` then `up` in one frame makes two notices, in order.
    @Test func batchIsToldPerMessage() {
        var (session, output) = ControlMessageTests.touchpad(Self.context())
        session.receive(
            #"[{"type":"button","button":"left","action":"down"},{"type":"button","button":"left","action":"up"}]"#, at: 10,
            into: &output)
        #expect(Self.held(output).map(Self.fields).elementsEqual([(["left"], [], nil), ([], [], nil)]) { $0 == $1 })
    }

    /// The release rule: a connection silent for releaseAfterSilence with the bar's button down gets it released, and is told.
    @Test func silenceRelease() {
        var (session, output) = ControlMessageTests.touchpad(Self.context { $0.releaseAfterSilence = 500 })
        session.receive(#"{"type":"button","button":"left","action":"down"}"#, at: 100, into: &output)
        #expect(session.nextWakeup == 600)
        let released = Self.fire(600, &session)
        #expect(released.notes.count == 1 && released.actions == [.button(.left, .up)])
        #expect(Self.held(released).map(Self.fields).elementsEqual([([], [], nil)]) { $0 == $1 })
    }

    /// Control turning off releases and says so once, before the control notice; while off and when it comes back, nothing held is told.
    @Test func controlOffAndOn() {
        let on = Self.context()
        var (session, output) = ControlMessageTests.touchpad(on)
        session.receive(#"{"type":"button","button":"left","action":"down"}"#, at: 10, into: &output)
        output.removeAll()
        session.updateControl(.off(reason: "revoked"), into: &output)
        #expect(TestSupport.types(output) == ["held", "control"])
        #expect(Self.held(output).map(Self.fields).elementsEqual([([], [], nil)]) { $0 == $1 })
        output.removeAll()
        session.receive(#"{"type":"button","button":"left","action":"down"}"#, at: 20, into: &output)
        session.receive(TestSupport.down(1, t: 1_030), at: 30, into: &output)
        session.receive(TestSupport.up(1, t: 1_080), at: 80, into: &output)
        session.updateControl(on, into: &output)
        #expect(!TestSupport.types(output).contains("held"))
        output.removeAll()
        session.receive(#"{"type":"button","button":"left","action":"down"}"#, at: 100, into: &output)
        #expect(Self.held(output).map(Self.fields).elementsEqual([(["left"], [], nil)]) { $0 == $1 })
    }

    /// Without control, and on an observer, nothing is ever told.
    @Test(.enabled(if: EngineProbe.isImplemented)) func notWithoutControlNorToObservers() {
        var (session, output) = ControlMessageTests.touchpad(.off(reason: "--control off"))
        session.receive(TestSupport.down(1, t: 1_000), at: 0, into: &output)
        session.receive(TestSupport.up(1, t: 1_050), at: 50, into: &output)
        session.fire(now: 5_000, into: &output)
        #expect(!output.events.isEmpty && !TestSupport.types(output).contains("held"))
        var observer = ProtocolSession(sessionID: "o", config: GestureConfig(), limits: ProtocolLimits(), control: Self.context())
        output.removeAll()
        observer.receive(#"{"type":"hello","protocol":1,"role":"observer"}"#, at: 0, into: &output)
        observer.receive(#"{"type":"button","button":"left","action":"down"}"#, at: 10, into: &output)
        #expect(!TestSupport.types(output).contains("held"))
    }

    /// The `touchpad` backend: a tap is a contact (the desktop holds its own buttons) and says nothing; the bar's button is told.
    @Test func touchpadBackendTellsOnlyWhatTheMapperHolds() {
        var (session, output) = ControlMessageTests.touchpad(Self.context(backend: "touchpad"))
        session.receive(TestSupport.down(1, t: 1_000), at: 0, into: &output)
        session.receive(TestSupport.up(1, t: 1_050), at: 50, into: &output)
        session.fire(now: 1_000, into: &output)
        #expect(output.actions.contains { if case .contact = $0 { true } else { false } })
        #expect(Self.held(output).isEmpty)
        session.receive(#"{"type":"button","button":"left","action":"down"}"#, at: 1_100, into: &output)
        #expect(Self.held(output).map(Self.fields).elementsEqual([(["left"], [], nil)]) { $0 == $1 })
    }
}
