import GestureControl
import GestureProtocol
import Testing

@testable import GesturePadServer

/// Every way into the hub is a `HubInput` answered with actions: opening a connection,
/// shutdown, the control backend's status, and pairing's decisions (hold, admit, refuse).
@Suite struct HubInputTests {
    let device = DeviceGreeting(id: "d1", name: "Phone", key: "KEY")
    static let shuttingDown = ConnectionState.CloseRequest(code: .goingAway, reason: "server shutting down", flush: true)

    /// Opening arms the hello deadline; a name the transport already used is ignored and its
    /// connection left as it is.
    @Test func openedArmsTheHelloDeadline() {
        let harness = HubHarness()
        #expect(harness.handle(.opened(7, now: 100)) == [.scheduleWakeup(7, deadline: 10_100)])
        #expect(harness.hub.connections[7]?.state == .open(.init(wakeup: 10_100)))
        harness.send(7, HubHarness.touchpadHello, at: 200)
        #expect(harness.handle(.opened(7, now: 300)).isEmpty)
        #expect(harness.hub.connections[7]?.role == .touchpad)
        #expect(harness.hub.connections[7]?.state == .open(.init()))
    }

    /// Shutdown reaches every connection in its own state: an open one and a waiting one close
    /// with 1001 after their queue; one already closing keeps its own close; one whose Close
    /// is with lws is left alone.
    @Test func shutdownInEveryState() {
        let harness = HubHarness()
        let open = harness.open(), waiting = harness.open(), refused = harness.open(), failed = harness.open()
        harness.handle(.hold(waiting, device, .confirm, now: 0))
        harness.receive(refused, [0], isBinary: true)
        harness.handle(.closeFrameSeen(failed))
        #expect(
            harness.handle(.shutdown) == [
                .cancelWakeup(open), .limitClosingTime(open), .requestWritable(open), .limitClosingTime(waiting),
                .requestWritable(waiting),
            ])
        #expect(harness.hub.connections[open]?.state == .closing(Self.shuttingDown, readingPausedAt: nil))
        #expect(harness.hub.connections[waiting]?.state == .closing(Self.shuttingDown, readingPausedAt: nil))
        #expect(harness.hub.connections[failed]?.state == .closeSent)
        #expect(
            harness.drain(waiting)
                == (
                    [#"{"type":"pairing","state":"waiting","device":{"id":"d1","name":"Phone"}}"#],
                    .close(waiting, code: .goingAway, reason: "server shutting down")
                ))
        #expect(harness.drain(refused).close == .close(refused, code: .unsupportedData, reason: "binary frames are not accepted"))
        #expect(harness.drain(failed) == ([], nil))
    }

    /// Control going off is one input: the touchpad's notice is queued, what it held goes to
    /// the backend as one `perform`, and its silence timer is cancelled (nothing is held);
    /// observers get nothing, and the same status again is no input at all.
    @Test func controlStatusChangedReturnsEveryEffect() {
        let backend = SwitchableBackend()
        let harness = ControlStatusHubTests.harness(backend)
        let pad = ControlStatusHubTests.touchpad(harness)
        let observer = harness.open()
        harness.send(observer, HubHarness.observerHello)
        _ = harness.drain(observer)
        harness.send(pad, #"{"type":"button","button":"left","action":"down"}"#, at: 1)
        #expect(harness.transport.armed[pad] != nil)
        let told = #"{"type":"command","session":"1","command":"button","button":"left","action":"down"}"#
        #expect(harness.drain(pad).frames == [#"{"type":"held","buttons":["left"],"keys":[]}"#, told])
        #expect(harness.drain(observer).frames == [told])
        let off = HubInput.controlStatusChanged(.inactive(reason: ControlStatusHubTests.closed), now: 2)
        #expect(harness.handle(off) == [.requestWritable(pad), .perform([.button(.left, .up)][...]), .cancelWakeup(pad)])
        #expect(harness.hub.control.status == .inactive(reason: ControlStatusHubTests.closed))
        #expect(harness.handle(off).isEmpty)
        #expect(harness.drain(observer).frames.isEmpty)
    }

    /// A held connection waits (`waiting`): its timer is cancelled, its hello kept unread, a
    /// late timer callback ignored, only its notice written. Admitted, it is `open`, reads the
    /// hello and becomes a touchpad at once.
    @Test func holdThenAdmit() {
        let harness = HubHarness()
        let id = harness.open(at: 0)
        #expect(harness.handle(.hold(id, device, .confirm, now: 1)) == [.cancelWakeup(id), .requestWritable(id)])
        #expect(harness.hub.connections[id]?.state == .waiting(.init()))
        #expect(harness.send(id, HubHarness.touchpadHello, at: 5).isEmpty)
        #expect(harness.fire(id, at: 10_000).isEmpty)
        let hello = Array(HubHarness.touchpadHello.utf8)
        #expect(harness.hub.connections[id]?.state == .waiting(.init(held: [hello], heldBytes: hello.count)))
        #expect(harness.drain(id).frames.count == 1)
        #expect(harness.handle(.admit(id, device, now: 20_000)) == [.announceSession("\(id)", open: true), .requestWritable(id)])
        #expect(harness.hub.connections[id]?.state == .open(.init()))
        #expect(harness.hub.touchpads == [id])
    }

    /// Admitted before it said anything, a connection's hello deadline runs from the admission;
    /// an admission for a connection that is not waiting is ignored.
    @Test func admitStartsTheHelloDeadline() {
        let harness = HubHarness()
        let id = harness.open(at: 0)
        harness.handle(.hold(id, device, .confirm, now: 0))
        #expect(harness.handle(.admit(id, device, now: 30_000)) == [.scheduleWakeup(id, deadline: 40_000)])
        #expect(harness.handle(.admit(id, device, now: 31_000)).isEmpty)
        #expect(harness.hub.connections[id]?.state == .open(.init(wakeup: 40_000)))
    }

    /// Pairing's refusal closes at once without the queue (4403 for a forgotten device); a
    /// second refusal, or one for a connection already closing, changes nothing.
    @Test func refuseClosesOnce() {
        let harness = HubHarness()
        let id = harness.open()
        harness.send(id, HubHarness.touchpadHello)
        let refusal = HubInput.refuse(id, code: .deviceNotPaired, reason: "forgotten")
        #expect(harness.handle(refusal) == [.limitClosingTime(id), .requestWritable(id)])
        #expect(
            harness.hub.connections[id]?.state
                == .closing(.init(code: .deviceNotPaired, reason: "forgotten", flush: false), readingPausedAt: nil))
        #expect(harness.handle(refusal).isEmpty)
        #expect(harness.drain(id) == ([], .close(id, code: .deviceNotPaired, reason: "forgotten")))
    }

    /// A waiting connection failed by lws (its own Close) is hung up like any other; it had
    /// no timer to cancel.
    @Test func waitingConnectionFailed() {
        let harness = HubHarness()
        let id = harness.open()
        harness.handle(.hold(id, device, .confirm, now: 0))
        #expect(harness.handle(.closeFrameSeen(id)) == [.hangUp(id)])
        #expect(harness.hub.connections[id]?.state == .closeSent)
        #expect(harness.handle(.admit(id, device, now: 1)).isEmpty)
    }
}
