import GestureProtocol
import Testing

@testable import GesturePadServer

@Suite struct RecordingHubTests {
    /// A touchpad's frames reach the recorder exactly as received: the frame with its hello
    /// begins the recording, every later frame follows, and the close ends it.
    @Test func touchpadFramesAreRecordedInOrder() {
        let recorder = FakeRecorder()
        let harness = HubHarness(recorder: recorder)
        let id = harness.open()
        let before = #"{"type":"ping","t":1}"#  // refused (hello_required): not part of the session
        harness.send(id, before)
        harness.send(id, HubHarness.touchpadHello)
        let down = HubHarness.pointer("down", x: 10, y: 20, t: 100)
        let batch =
            "[" + HubHarness.pointer("move", x: 11, y: 20, t: 116) + ",\n " + HubHarness.pointer("move", x: 12, y: 20, t: 132)
            + "]"
        let bad = "not json"
        harness.send(id, down, at: 1)
        harness.send(id, batch, at: 2)
        harness.send(id, bad, at: 3)
        harness.handle(.closed(id, now: 4))
        #expect(
            recorder.calls == [
                .began("1", HubHarness.touchpadHello), .frame("1", down), .frame("1", batch), .frame("1", bad), .ended("1"),
            ])
    }

    /// Observers and connections that never said hello are not recorded; a batch holding the
    /// hello begins the recording with the whole batch.
    @Test func observersAreNotRecorded() {
        let recorder = FakeRecorder()
        let harness = HubHarness(recorder: recorder)
        let observer = harness.open()
        harness.send(observer, HubHarness.observerHello)
        harness.send(observer, #"{"type":"ping","t":5}"#)
        let silent = harness.open()
        harness.send(silent, #"{"type":"down"}"#)
        let touchpad = harness.open()
        let batch = "[" + HubHarness.touchpadHello + "," + HubHarness.pointer("down", x: 1, y: 2, t: 10) + "]"
        harness.send(touchpad, batch)
        harness.handle(.closed(observer, now: 1))
        harness.handle(.closed(silent, now: 1))
        harness.handle(.closed(touchpad, now: 1))
        #expect(recorder.calls == [.began("3", batch), .ended("3")])
    }

    /// Without a recorder the hub asks for no recording (one check per frame): a touchpad's
    /// session from hello to close produces no recorder action.
    @Test func noRecorderByDefault() {
        let harness = HubHarness()
        #expect(!harness.hub.recording)
        let id = harness.open()
        harness.send(id, HubHarness.touchpadHello)
        harness.send(id, HubHarness.pointer("down", x: 10, y: 20, t: 100), at: 1)
        harness.handle(.closed(id, now: 2))
        #expect(harness.transport.log.contains(.announceSession("\(id)", open: false)))
        #expect(
            !harness.transport.log.contains {
                switch $0 {
                case .beginRecording, .record, .endRecording: true
                default: false
                }
            })
    }
}
