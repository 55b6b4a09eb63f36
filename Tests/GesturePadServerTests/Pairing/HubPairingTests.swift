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

    /// A held connection is told it waits, its hello stays unread (no welcome, no hello
    /// deadline), and once admitted it is answered with the device.
    @Test func heldUntilAdmitted() {
        let harness = HubHarness()
        let id = harness.open(at: 0)
        harness.handle(.hold(id, DeviceGreeting(id: "d1", name: "Phone"), now: 0))
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
        harness.handle(.hold(id, device, now: 0))
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
