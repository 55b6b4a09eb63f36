import GestureEngine
import Testing

@testable import GestureProtocol

@Suite struct PairingMessageTests {
    func session(device: DeviceGreeting?) -> ProtocolSession {
        var session = ProtocolSession(sessionID: "4", config: GestureConfig(), limits: ProtocolLimits())
        if let device { session.greet(as: device) }
        return session
    }

    /// welcome carries the device, with its key on the pairing connection, and never again.
    @Test func welcomeCarriesTheDeviceAndTheKeyOnce() {
        var session = session(device: DeviceGreeting(id: "d1", name: "Pixel 8 · Chrome", key: "KEY"))
        var output = SessionOutput()
        session.receive(TestSupport.hello, at: 0, into: &output)
        let welcome = TestSupport.frames(output)[0].1
        #expect(welcome["type"] as? String == "welcome")
        #expect(welcome["device"] as? [String: String] == ["id": "d1", "name": "Pixel 8 · Chrome", "key": "KEY"])
        #expect(session.device == DeviceGreeting(id: "d1", name: "Pixel 8 · Chrome"))
    }

    /// Without a device (no pairing) the welcome is as before: no `device` field.
    @Test func noDeviceNoField() {
        var session = session(device: nil)
        var output = SessionOutput()
        session.receive(TestSupport.hello, at: 0, into: &output)
        #expect(TestSupport.frames(output)[0].1["device"] == nil)
    }

    /// `unpair` is accepted from a touchpad and from an observer, after hello only.
    @Test func unpairIsAcceptedAfterHello() {
        var touchpad = session(device: nil)
        var output = SessionOutput()
        touchpad.receive(#"{"type":"unpair"}"#, at: 0, into: &output)
        #expect(!output.unpairRequested && TestSupport.errorCodes(output) == ["hello_required"])
        output.removeAll()
        touchpad.receive(TestSupport.hello, at: 0, into: &output)
        output.removeAll()
        touchpad.receive(#"{"type":"unpair"}"#, at: 1, into: &output)
        #expect(output.unpairRequested && output.frames.frames.isEmpty)
        var observer = session(device: nil)
        output.removeAll()
        observer.receive(#"{"type":"hello","protocol":1,"role":"observer"}"#, at: 0, into: &output)
        output.removeAll()
        observer.receive(#"{"type":"unpair"}"#, at: 1, into: &output)
        #expect(output.unpairRequested && TestSupport.errorCodes(output).isEmpty)
    }

    /// A device paired as an observer watches: its observer `hello` is welcomed, its touchpad
    /// `hello` closes the connection with 4415 — no welcome, no touchpad, no control.
    @Test func anObserverDeviceIsNoTouchpad() {
        let watcher = DeviceGreeting(id: "d1", name: "Watching · Linux · Chrome", kind: .observer)
        var pad = session(device: watcher)
        var output = SessionOutput()
        pad.receive(TestSupport.hello, at: 0, into: &output)
        #expect(output.close?.code == .observerOnly && output.close?.reason.contains("watch") == true)
        #expect(output.helloRole == nil && output.frames.frames.isEmpty && output.actions.isEmpty)
        #expect(pad.role == nil)

        var observer = session(device: watcher)
        output.removeAll()
        observer.receive(#"{"type":"hello","protocol":1,"role":"observer"}"#, at: 0, into: &output)
        #expect(output.close == nil && output.helloRole == .observer)
        #expect(TestSupport.frames(output)[0].1["type"] as? String == "welcome")

        // A touchpad's device (the default kind) may be either.
        var phone = session(device: DeviceGreeting(id: "d2", name: "Pixel 8 · Chrome"))
        output.removeAll()
        phone.receive(TestSupport.hello, at: 0, into: &output)
        #expect(output.close == nil && output.helloRole == .touchpad)
    }

    /// The waiting notice names the device without its key.
    @Test func waitingNotice() {
        var bytes: [UInt8] = []
        MessageEncoder.appendPairingWaiting(
            device: DeviceGreeting(id: "d1", name: "iPhone", key: "KEY"), for: .confirm, to: &bytes)
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == #"{"type":"pairing","state":"waiting","device":{"id":"d1","name":"iPhone"}}"#)
        bytes.removeAll()
        MessageEncoder.appendPairingWaiting(device: DeviceGreeting(id: "d1", name: "iPhone"), for: .pairingClosed, to: &bytes)
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == #"{"type":"pairing","state":"closed","device":{"id":"d1","name":"iPhone"}}"#)
    }

    /// The pairing close codes are the documented ones.
    @Test func closeCodes() {
        #expect(CloseCode.pairingDeclined.rawValue == 4401 && CloseCode.deviceNotPaired.rawValue == 4403)
        #expect(CloseCode.observerOnly.rawValue == 4415)
        #expect(PageModule.text.contains("export const CLOSE_OBSERVER_ONLY = 4415;"))
    }
}
