import GestureControl
import GestureProtocol
import Synchronization
import Testing

@testable import GesturePadServer

/// A backend whose status the test sets, recording actions and requests for control.
final class SwitchableBackend: ControlBackend {
    let name = "portal"
    let capabilities = ControlCapabilities(characters: .anyUnicode)
    private let log = Mutex<[HostAction]>([])
    private let requests = Mutex(0)

    var actions: [HostAction] { log.withLock { $0 } }
    var controlRequests: Int { requests.withLock { $0 } }

    func perform(_ actions: ArraySlice<HostAction>) { log.withLock { $0 += actions } }
    func releaseAll() {}
    func stop() {}
    func requestControl() { requests.withLock { $0 += 1 } }
}

/// Control that turns off and on while the server runs (the portal session ends, is asked for
/// again): the `control` notice, what sessions do after it, and when control is asked for.
struct ControlStatusHubTests {
    static let closed = "the desktop ended the remote control session"

    static func harness(_ backend: SwitchableBackend, active: Bool = true) -> HubHarness {
        HubHarness(backend: backend) { configuration in
            var settings = ControlSettings()
            settings.acceleration = .flat
            let status: ControlContext.Status = active ? .active(backend: "portal") : .inactive(reason: "waiting")
            configuration.control = ControlContext(
                status: status, settings: settings, capabilities: .init(characters: .anyUnicode))
        }
    }

    static func touchpad(_ h: HubHarness) -> Int {
        let id = h.open()
        h.send(id, HubHarness.touchpadHello, at: 0)
        _ = h.drain(id)
        return id
    }

    /// Going inactive: each touchpad gets {"type":"control","active":false,"reason":…}, what it
    /// held is released (and `held` says so first), its commands are answered control_off and its moves move nothing;
    /// observers get no notice.
    @Test func goingInactiveTellsTouchpadsAndStopsThem() {
        let backend = SwitchableBackend()
        let h = Self.harness(backend)
        let pad = Self.touchpad(h)
        let observer = h.open()
        h.send(observer, HubHarness.observerHello, at: 0)
        _ = h.drain(observer)
        h.send(pad, #"{"type":"button","button":"left","action":"down"}"#, at: 1)
        h.handle(.controlStatusChanged(.inactive(reason: Self.closed), now: 2))
        #expect(backend.actions == [.button(.left, .down), .button(.left, .up)])
        let told = #"{"type":"command","session":"1","command":"button","button":"left","action":"down"}"#
        #expect(
            h.drain(pad).frames == [
                #"{"type":"held","buttons":["left"],"keys":[]}"#, told, #"{"type":"held","buttons":[],"keys":[]}"#,
                #"{"type":"control","active":false,"reason":"\#(Self.closed)"}"#,
            ])
        #expect(h.drain(observer).frames == [told], "observers hear the command, not the control notice")
        h.send(pad, #"{"type":"text","text":"hi"}"#, at: 2)
        #expect(h.drain(pad).frames.first?.contains(#""code":"control_off""#) == true)
        h.send(pad, HubHarness.pointer("down", x: 100, y: 100, t: 1000), at: 3)
        h.send(pad, HubHarness.pointer("move", x: 150, y: 100, t: 1010), at: 4)
        #expect(backend.actions.count == 2)
    }

    /// A connection open before control came on but saying hello after (the portal's answer
    /// arrived in between) welcomes with control active, and is not sent a notice as well.
    @Test func helloAfterTheChangeWelcomesWithTheNewStatus() {
        let backend = SwitchableBackend()
        let h = Self.harness(backend, active: false)
        let early = h.open()
        h.handle(.controlStatusChanged(.active, now: 1))
        #expect(h.drain(early).frames.isEmpty)
        h.send(early, HubHarness.touchpadHello, at: 2)
        let frames = h.drain(early).frames
        #expect(frames.first?.contains(#""control":{"active":true,"backend":"portal"}"#) == true, "\(frames)")
        #expect(!frames.contains { $0.contains(#""type":"control""#) })
    }

    /// The same status twice is one notice; a status the hub already has is none.
    @Test func noticeOncePerChange() {
        let backend = SwitchableBackend()
        let h = Self.harness(backend)
        let pad = Self.touchpad(h)
        h.handle(.controlStatusChanged(.active, now: 2))
        #expect(h.drain(pad).frames.isEmpty)
        h.handle(.controlStatusChanged(.inactive(reason: Self.closed), now: 2))
        h.handle(.controlStatusChanged(.inactive(reason: Self.closed), now: 2))
        #expect(h.drain(pad).frames.count == 1)
    }

    /// While inactive, each touchpad that connects asks for control once (the backend ignores
    /// repeats while it is asking); observers never ask; nothing asks while active.
    @Test func touchpadsAskForControlWhileInactive() {
        let backend = SwitchableBackend()
        let h = Self.harness(backend)
        _ = Self.touchpad(h)
        #expect(backend.controlRequests == 0)
        h.handle(.controlStatusChanged(.inactive(reason: Self.closed), now: 2))
        #expect(backend.controlRequests == 0)
        let observer = h.open()
        h.send(observer, HubHarness.observerHello, at: 0)
        #expect(backend.controlRequests == 0)
        let second = Self.touchpad(h)
        #expect(backend.controlRequests == 1)
        h.send(second, #"{"type":"ping","t":5}"#, at: 5)
        #expect(backend.controlRequests == 1)
    }

    /// Becoming active again: the notice names the backend, the touchpads already open drive the
    /// computer again (with the settings their page chose), and new welcomes say active.
    @Test func becomingActiveAgain() {
        let backend = SwitchableBackend()
        let h = Self.harness(backend, active: false)
        let pad = Self.touchpad(h)
        h.send(pad, #"{"type":"settings","speed":2}"#, at: 1)
        #expect(h.drain(pad).frames.first?.contains(#""code":"control_off""#) == true)
        h.handle(.controlStatusChanged(.active, now: 2))
        #expect(h.drain(pad).frames == [#"{"type":"control","active":true,"backend":"portal"}"#])
        h.send(pad, HubHarness.pointer("down", x: 100, y: 100, t: 1000), at: 2)
        h.send(pad, HubHarness.pointer("move", x: 104, y: 98, t: 1010), at: 3)
        #expect(backend.actions == [.motion(dx: 4, dy: -2)])
        h.send(pad, #"{"type":"settings","speed":2}"#, at: 4)
        _ = h.drain(pad)
        h.handle(.controlStatusChanged(.inactive(reason: Self.closed), now: 2))
        h.handle(.controlStatusChanged(.active, now: 2))
        // A finger down before control came back is not followed (the new mapper never saw it
        // go down); the next contact is, at the page's speed 2.
        h.send(pad, HubHarness.pointer("move", x: 108, y: 98, t: 1020), at: 5)
        h.send(pad, HubHarness.pointer("up", x: 108, y: 98, t: 1600), at: 5)
        h.send(pad, HubHarness.pointer("down", id: 2, x: 300, y: 300, t: 2000), at: 6)
        h.send(pad, HubHarness.pointer("move", id: 2, x: 304, y: 300, t: 2010), at: 16)
        let motions = backend.actions.filter { if case .motion = $0 { true } else { false } }
        #expect(motions == [.motion(dx: 4, dy: -2), .motion(dx: 8, dy: 0)])
        let late = h.open()
        h.send(late, HubHarness.touchpadHello, at: 7)
        #expect(h.drain(late).frames.first?.contains(#""control":{"active":true,"backend":"portal"}"#) == true)
    }

    /// Without a backend (`--control off`) a status change does nothing.
    @Test func noBackendNoNotice() {
        let h = HubHarness()
        let pad = Self.touchpad(h)
        h.handle(.controlStatusChanged(.inactive(reason: Self.closed), now: 2))
        #expect(h.drain(pad).frames.isEmpty)
    }
}
