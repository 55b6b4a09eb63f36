import GestureProtocol
import Testing

@testable import GesturePadServer

/// The hub's transitions, read off the actions it returns: what the transport is asked to do
/// for each input, on a virtual clock (time is an argument; nothing sleeps).
@Suite struct HubStateMachineTests {
    static func isWrite(_ action: HubAction) -> Bool {
        if case .write = action { true } else { false }
    }

    /// Past the high watermark reading pauses (and a writable callback is asked for); the
    /// write that brings the queue under the low watermark resumes it, and asks for no more.
    @Test func backPressurePausesAndResumes() {
        let harness = HubHarness {
            $0.outboundHighWatermark = 400
            $0.outboundLowWatermark = 100
        }
        let id = harness.open(at: 0)
        // The welcome alone is over 400 bytes.
        #expect(
            harness.send(id, HubHarness.touchpadHello, at: 10) == [
                .announceSession("\(id)", open: true), .pauseReading(id), .requestWritable(id), .cancelWakeup(id),
            ])
        #expect(harness.hub.connections[id]?.state.readingPausedAt == 10)
        let actions = harness.handle(.writable(id, now: 30))
        #expect(actions.count == 2)
        #expect(actions.first == .resumeReading(id))
        #expect(actions.last.map(Self.isWrite) == true)
        #expect(harness.hub.connections[id]?.state == .open(.init()))
        // Nothing queued: a writable callback does nothing.
        #expect(harness.handle(.writable(id, now: 40)).isEmpty)
    }

    /// One connection's life, state by state (the diagram of `ConnectionState`): open with its
    /// hello deadline, waiting while held for pairing, open again once admitted (its kept hello
    /// read), closing when refused, closeSent once its Close is handed over, then gone.
    @Test func lifeStateByState() {
        let harness = HubHarness()
        let device = DeviceGreeting(id: "d1", name: "Phone")
        let id = harness.open(at: 0)
        func state() -> ConnectionState? { harness.hub.connections[id]?.state }
        #expect(state() == .open(.init(wakeup: 10_000)))
        harness.handle(.hold(id, device, .confirm, now: 1))
        harness.send(id, HubHarness.touchpadHello, at: 2)
        let hello = Array(HubHarness.touchpadHello.utf8)
        #expect(state() == .waiting(.init(held: [hello], heldBytes: hello.count)))
        harness.handle(.admit(id, device, now: 3))
        #expect(state() == .open(.init()) && harness.hub.connections[id]?.role == .touchpad)
        harness.handle(.refuse(id, code: .deviceNotPaired, reason: "gone"))
        #expect(state() == .closing(.init(code: .deviceNotPaired, reason: "gone", flush: false), readingPausedAt: nil))
        #expect(harness.handle(.writable(id, now: 4)) == [.close(id, code: .deviceNotPaired, reason: "gone")])
        #expect(state() == .closeSent)
        harness.handle(.closed(id, now: 5))
        #expect(state() == nil && harness.hub.touchpads.isEmpty)
    }

    /// After its own Close the hub asks nothing more for the connection: no write, no timer, no
    /// hang-up when lws reports the Close it sent, and input is not processed.
    @Test func nothingAfterOwnClose() {
        let harness = HubHarness()
        let observer = harness.open()
        harness.send(observer, HubHarness.observerHello)
        let id = harness.open()
        harness.send(id, HubHarness.touchpadHello)
        _ = harness.drain(observer)
        harness.receive(id, [1], isBinary: true)
        #expect(
            harness.handle(.writable(id, now: 1)) == [
                .close(id, code: .unsupportedData, reason: "binary frames are not accepted")
            ])
        #expect(harness.handle(.writable(id, now: 2)).isEmpty)
        #expect(harness.send(id, HubHarness.pointer("down", x: 1, y: 1, t: 100), at: 3).isEmpty)
        #expect(harness.fire(id, at: 20_000).isEmpty)
        #expect(harness.handle(.closeFrameSeen(id)).isEmpty)
        #expect(harness.handle(.peerClosed(id)).isEmpty)
        #expect(harness.hub.connections[id]?.state == .closeSent)
        // Gone: observers and the sinks hear the session closed; the connection itself gets nothing.
        #expect(harness.handle(.closed(id, now: 4)) == [.requestWritable(observer), .announceSession("\(id)", open: false)])
        #expect(harness.drain(observer).frames.last == #"{"type":"session","session":"\#(id)","state":"closed"}"#)
    }

    /// A Close that is not the hub's (lws failed the connection) drops the queue, cancels the
    /// timer and hangs up; the peer's Close does the same without the hang-up.
    @Test func foreignCloseHangsUpPeerCloseDoesNot() {
        let harness = HubHarness()
        let failed = harness.open(at: 0), answered = harness.open(at: 0)
        harness.send(failed, HubHarness.touchpadHello)
        #expect(harness.handle(.closeFrameSeen(failed)) == [.hangUp(failed)])
        #expect(harness.handle(.writable(failed, now: 1)).isEmpty)
        #expect(harness.handle(.peerClosed(answered)) == [.cancelWakeup(answered)])
        #expect(harness.handle(.writable(answered, now: 1)).isEmpty)
    }

    /// Opening arms the hello deadline; a timer that fires while input waits in the socket is
    /// put off 1 ms at a time, counted from the armed deadline, until 25 ms past it; without
    /// pending input it fires at once.
    @Test func wakeupGraceOnAVirtualClock() {
        let harness = HubHarness()
        let (id, opened) = harness.opening(at: 1_000)
        #expect(opened == [.scheduleWakeup(id, deadline: 11_000)])
        #expect(harness.fire(id, at: 11_000, inputPending: true) == [.scheduleWakeup(id, deadline: 11_001)])
        #expect(harness.fire(id, at: 11_024.5, inputPending: true) == [.scheduleWakeup(id, deadline: 11_025.5)])
        #expect(harness.hub.connections[id]?.state == .open(.init(wakeup: 11_000)))
        let late = harness.fire(id, at: 11_025, inputPending: true)
        #expect(late == [.limitClosingTime(id), .requestWritable(id)])
        guard case .close(_, let code, _) = harness.drain(id).close else {
            Issue.record("expected a close")
            return
        }
        #expect(code == .policyViolation)

        let other = harness.open(at: 0)
        #expect(harness.fire(other, at: 10_000, inputPending: false) == [.limitClosingTime(other), .requestWritable(other)])
    }

    /// Input handled while a due timer waits for it goes first: the hello that was waiting in
    /// the socket when its deadline came keeps the connection open, and its timer is cancelled.
    @Test func inputWaitingAtTheDeadlineGoesFirst() {
        let harness = HubHarness()
        let id = harness.open(at: 0)
        #expect(harness.fire(id, at: 10_003, inputPending: true) == [.scheduleWakeup(id, deadline: 10_004)])
        let hello = harness.send(id, HubHarness.touchpadHello, at: 10_003.5)
        #expect(hello == [.announceSession("\(id)", open: true), .requestWritable(id), .cancelWakeup(id)])
        // A timer callback already on its way finds nothing due.
        #expect(harness.fire(id, at: 10_004).isEmpty)
        #expect(harness.drain(id).frames.first?.contains(#""type":"welcome""#) == true)
    }

    /// A touchpad's hello and gestures make the hub ask for writable callbacks on every
    /// observer; its departure does too, with the closed notice.
    @Test func observersAreNotified() {
        let harness = HubHarness()
        let first = harness.open(), second = harness.open()
        harness.send(first, HubHarness.observerHello)
        harness.send(second, HubHarness.observerHello)
        _ = harness.drain(first)
        _ = harness.drain(second)
        let pad = harness.open()
        let hello = harness.send(pad, HubHarness.touchpadHello, at: 1)
        #expect(hello.contains(.requestWritable(first)) && hello.contains(.requestWritable(second)))
        for observer in [first, second] {
            #expect(harness.drain(observer).frames == [#"{"type":"session","session":"\#(pad)","state":"open"}"#])
        }
        _ = harness.drain(pad)
        let contact =
            harness.send(pad, HubHarness.pointer("down", x: 50, y: 60, t: 100), at: 20)
            + harness.send(pad, HubHarness.pointer("up", x: 50, y: 60, t: 150), at: 70)
        #expect(contact.contains(.requestWritable(first)) && contact.contains(.requestWritable(pad)))
        #expect(harness.drain(first).frames.contains { $0.contains(#""gesture":"tap""#) })
        _ = harness.drain(second)
        let closed = harness.handle(.closed(pad, now: 80))
        #expect(closed.contains(.requestWritable(second)))
        #expect(harness.drain(second).frames.last == #"{"type":"session","session":"\#(pad)","state":"closed"}"#)
    }

    /// Shutdown starts every open connection's close (1001, after its queue), cancelling armed
    /// timers; a connection already closing is left as it is.
    @Test func shutdownClosesEveryConnection() {
        let harness = HubHarness()
        let a = harness.open(at: 0), b = harness.open(at: 0)
        harness.receive(b, [0], isBinary: true)
        let actions = harness.handle(.shutdown)
        #expect(actions == [.cancelWakeup(a), .limitClosingTime(a), .requestWritable(a)])
        #expect(harness.drain(a).close == .close(a, code: .goingAway, reason: "server shutting down"))
        #expect(harness.drain(b).close == .close(b, code: .unsupportedData, reason: "binary frames are not accepted"))
    }
}
