import GestureProtocol
import Testing

@testable import GesturePadServer

@Suite struct HubPairingTests {
    let device = DeviceGreeting(id: "d1", name: "Phone", key: "KEY")

    /// A greeted connection's welcome carries its device.
    @Test func greetedWelcome() throws {
        let harness = HubHarness()
        let id = harness.open()
        harness.handle(.greet(id, device))
        harness.send(id, HubHarness.touchpadHello)
        let welcome = harness.drain(id).frames[0]
        #expect(welcome.contains(#""device":{"id":"d1","name":"Phone","key":"KEY"}"#))
    }

    /// The computer and the run are in every welcome; an observer hears each touchpad's
    /// session with the run and its device's name, also when it joins late.
    @Test func identityAndNamesReachObservers() {
        let harness = HubHarness(identity: ServerIdentity(host: "desk", run: "r1"))
        let pad = harness.open()
        harness.handle(.greet(pad, DeviceGreeting(id: "d1", name: "Phone")))
        harness.send(pad, HubHarness.touchpadHello)
        #expect(
            harness.drain(pad).frames[0].contains(
                #""server":"\#(GesturePadVersion.serverName)","host":"desk","run":"r1","config""#))
        let observer = harness.open()
        harness.send(observer, HubHarness.observerHello)
        let frames = harness.drain(observer).frames
        #expect(frames.count == 2 && frames[0].contains(#""run":"r1""#))
        #expect(frames[1] == #"{"type":"session","session":"1","state":"open","run":"r1","name":"Phone"}"#)
        harness.handle(.closed(pad, now: 5))
        #expect(
            harness.drain(observer).frames == [#"{"type":"session","session":"1","state":"closed","run":"r1","name":"Phone"}"#])
    }

    /// A rename reaches the connection at once (`device`) and observers (the session notice
    /// again); a connection that has not said hello yet only keeps the name for its welcome.
    @Test func renameIsToldAtOnce() {
        let harness = HubHarness(identity: ServerIdentity(host: "desk", run: "r1"))
        let pad = harness.open()
        harness.handle(.greet(pad, DeviceGreeting(id: "d1", name: "Phone")))
        harness.send(pad, HubHarness.touchpadHello)
        let observer = harness.open()
        harness.send(observer, HubHarness.observerHello)
        _ = harness.drain(pad)
        _ = harness.drain(observer)
        harness.handle(.rename(pad, DeviceGreeting(id: "d1", name: "Kitchen"), now: 1))
        #expect(harness.drain(pad).frames == [#"{"type":"device","device":{"id":"d1","name":"Kitchen"}}"#])
        #expect(
            harness.drain(observer).frames == [#"{"type":"session","session":"1","state":"open","run":"r1","name":"Kitchen"}"#])
        let early = harness.open()
        harness.handle(.greet(early, DeviceGreeting(id: "d1", name: "Kitchen")))
        harness.handle(.rename(early, DeviceGreeting(id: "d1", name: "Hall"), now: 2))
        #expect(harness.drain(early).frames.isEmpty)
        harness.send(early, HubHarness.touchpadHello)
        #expect(harness.drain(early).frames[0].contains(#""device":{"id":"d1","name":"Hall"}"#))
    }

    /// A held connection is told it waits, its hello stays unread (no welcome, no hello
    /// deadline), and once admitted it is answered with the device.
    @Test func heldUntilAdmitted() {
        let harness = HubHarness()
        let id = harness.open(at: 0)
        harness.handle(.hold(id, DeviceGreeting(id: "d1", name: "Phone"), .confirm, now: 0))
        #expect(harness.transport.armed[id] == nil)
        harness.send(id, HubHarness.touchpadHello, at: 5)
        #expect(harness.drain(id).frames == [#"{"type":"pairing","state":"waiting","device":{"id":"d1","name":"Phone"}}"#])
        harness.handle(.admit(id, device, now: 20_000))
        let frames = harness.drain(id).frames
        #expect(frames.count == 1 && frames[0].hasPrefix(#"{"type":"welcome""#) && frames[0].contains(#""key":"KEY""#))
        #expect(harness.hub.touchpads == [id])
    }

    /// A held connection may not pile up input: past one message's worth it is closed (1008).
    @Test func heldInputIsBounded() {
        let harness = HubHarness { $0.limits.maxMessageBytes = 100 }
        let id = harness.open()
        harness.handle(.hold(id, device, .confirm, now: 0))
        harness.send(id, String(repeating: " ", count: 60) + "{}")
        #expect(harness.transport.closesStarted.isEmpty)
        harness.send(id, String(repeating: " ", count: 60) + "{}")
        #expect(
            harness.drain(id).close
                == .close(
                    id, code: .policyViolation, reason: "more than 100 bytes sent before the pairing was accepted"))
    }

    /// Closing a device's connections sends each a 4403 close without its queued frames.
    @Test func closeDeviceConnections() {
        let harness = HubHarness()
        let a = harness.open(), b = harness.open()
        harness.send(a, HubHarness.touchpadHello)
        for id in [a, b] { harness.handle(.refuse(id, code: .deviceNotPaired, reason: "gone")) }
        #expect(harness.drain(a) == ([], .close(a, code: .deviceNotPaired, reason: "gone")))
        #expect(harness.drain(b).close == .close(b, code: .deviceNotPaired, reason: "gone"))
    }

    /// A page's unpair reaches the transport as `unpairDevice`.
    @Test func unpairIsHandedOver() {
        let harness = HubHarness()
        let id = harness.open()
        harness.send(id, HubHarness.touchpadHello)
        harness.send(id, #"{"type":"unpair"}"#)
        #expect(harness.transport.unpairs == [id])
    }
}
