import GestureControl
import GestureEngine
import GestureProtocol
import Testing

@testable import GesturePadServer

/// What reaches the sinks, the control backend and the recorder is returned as actions, in
/// order with the transport's, and carried out by the shell (`HubOutlets`).
@Suite struct HubEffectActionsTests {
    static func isDeliver(_ action: HubAction) -> Bool {
        if case .deliver = action { true } else { false }
    }

    /// A tap's events come back as one `deliver` per input, for the touchpad's session; the
    /// sinks get exactly what the actions carried.
    @Test func gestureEventsAreDelivered() throws {
        let harness = HubHarness()
        let id = harness.open()
        harness.send(id, HubHarness.touchpadHello)
        harness.send(id, HubHarness.pointer("down", x: 50, y: 60, t: 100), at: 20)
        let up = harness.send(id, HubHarness.pointer("up", x: 50, y: 60, t: 150), at: 70)
        let delivered = up.compactMap { action -> (String, [GestureEvent])? in
            if case .deliver(let session, let events) = action { (session, Array(events)) } else { nil }
        }
        #expect(delivered.count == 1)
        let (session, events) = try #require(delivered.first)
        #expect(session == "\(id)")
        #expect(events.contains { $0.gesture == .tap })
        #expect(harness.sink.events.suffix(events.count).map(\.event) == events)
    }

    /// A button command is a note for the sinks and a host action for the backend, then the
    /// silence timer: three actions, in that order, and nothing reaches the backend but them.
    @Test func commandIsNotedAndPerformed() {
        let backend = RecordingBackend()
        let harness = ControlHubTests.harness(backend)
        let id = harness.open()
        harness.send(id, HubHarness.touchpadHello)
        #expect(
            harness.send(id, #"{"type":"button","button":"left","action":"down"}"#, at: 100) == [
                .note(session: "\(id)", notes: [.command(.button(.left, .down))][...]),
                .perform([.button(.left, .down)][...]),
                .scheduleWakeup(id, deadline: 100 + ControlSettings().releaseAfterSilence),
            ])
        #expect(backend.actions == [.button(.left, .down)])
    }

    /// With control off at the backend, a touchpad's hello asks for control (an action), and
    /// an observer's does not; with control on, nobody asks.
    @Test func touchpadAsksForControlByAction() {
        let off = ControlStatusHubTests.harness(SwitchableBackend(), active: false)
        let pad = off.open(), observer = off.open()
        #expect(off.send(pad, HubHarness.touchpadHello).contains(.requestControl))
        #expect(!off.send(observer, HubHarness.observerHello).contains(.requestControl))
        let on = ControlStatusHubTests.harness(SwitchableBackend(), active: true)
        #expect(!on.send(on.open(), HubHarness.touchpadHello).contains(.requestControl))
    }

    /// The recorder's calls are actions: the hello begins the recording (before the session
    /// is announced), a later frame follows, the departure ends it after the sinks hear it.
    @Test func recordingByAction() {
        let recorder = FakeRecorder()
        let harness = HubHarness(recorder: recorder)
        let id = harness.open()
        let hello = HubHarness.touchpadHello
        #expect(
            harness.send(id, hello) == [
                .beginRecording(session: "\(id)", frame: Array(hello.utf8)), .announceSession("\(id)", open: true),
                .requestWritable(id), .cancelWakeup(id),
            ])
        let ping = #"{"type":"ping","t":1}"#
        #expect(harness.send(id, ping, at: 1).first == .record(session: "\(id)", frame: Array(ping.utf8)))
        #expect(
            harness.handle(.closed(id, now: 2)) == [.announceSession("\(id)", open: false), .endRecording(session: "\(id)")])
        #expect(recorder.calls == [.began("\(id)", hello), .frame("\(id)", ping), .ended("\(id)")])
    }

    /// An action's payload is a snapshot: the next input reuses the hub's buffers, and the
    /// events an earlier `deliver` carried stay as they were.
    @Test func payloadsAreSnapshots() throws {
        let harness = HubHarness()
        let id = harness.open()
        harness.send(id, HubHarness.touchpadHello)
        harness.send(id, HubHarness.pointer("down", x: 50, y: 60, t: 100), at: 20)
        let first = harness.hub.handle(
            .received(
                id, Array(HubHarness.pointer("up", x: 50, y: 60, t: 150).utf8)[...], isFinal: true, isBinary: false, now: 70))
        guard case .deliver(_, let events) = try #require(first.first(where: Self.isDeliver)) else { return }
        let before = Array(events)
        harness.send(id, HubHarness.pointer("down", id: 2, x: 10, y: 10, t: 1_000), at: 900)
        harness.fire(id, at: 2_000)
        #expect(Array(events) == before)
        #expect(harness.hub.output.events != before)
    }
}
