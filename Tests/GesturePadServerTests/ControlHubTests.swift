import GestureControl
import GestureProtocol
import Synchronization
import Testing

@testable import GesturePadServer

/// Records what the hub asks of the computer.
final class RecordingBackend: ControlBackend {
    let name = "test"
    let capabilities = ControlCapabilities(characters: .anyUnicode)
    private let log = Mutex<[HostAction]>([])
    private let releases = Mutex(0)

    var actions: [HostAction] { log.withLock { $0 } }
    var releaseAllCalls: Int { releases.withLock { $0 } }

    func perform(_ actions: ArraySlice<HostAction>) { log.withLock { $0 += actions } }
    func releaseAll() { releases.withLock { $0 += 1 } }
    func stop() {}
}

/// The hub hands a touchpad's host actions to the backend, in order, and releases on close.
struct ControlHubTests {
    static func harness(_ backend: RecordingBackend, active: Bool = true) -> HubHarness {
        HubHarness(backend: backend) { configuration in
            var settings = ControlSettings()
            settings.acceleration = .flat
            configuration.control =
                active
                ? ControlContext(status: .active(backend: "test"), settings: settings, capabilities: .init(characters: .anyUnicode))
                : .off(reason: "--control off")
        }
    }

    /// One finger's moves become motion; the welcome names the backend.
    @Test func motionReachesTheBackend() {
        let backend = RecordingBackend()
        let h = Self.harness(backend)
        let id = h.open()
        h.send(id, HubHarness.touchpadHello, at: 0)
        #expect(h.drain(id).frames.first?.contains(#""control":{"active":true,"backend":"test"}"#) == true)
        h.send(id, HubHarness.pointer("down", x: 100, y: 100, t: 1000), at: 1)
        h.send(id, HubHarness.pointer("move", x: 104, y: 98, t: 1010), at: 2)
        #expect(backend.actions == [.motion(dx: 4, dy: -2)])
    }

    /// Closing a connection mid-drag releases the held button at once.
    @Test func closeMidDragReleases() {
        let backend = RecordingBackend()
        let h = Self.harness(backend)
        let id = h.open()
        h.send(id, HubHarness.touchpadHello, at: 0)
        h.send(id, #"{"type":"button","button":"left","action":"down"}"#, at: 1)
        #expect(backend.actions == [.button(.left, .down)])
        h.handle(.closed(id, now: 5))
        #expect(backend.actions.last == .button(.left, .up))
    }

    /// A connection that holds a button and then says nothing for releaseAfterSilence is released
    /// by its timer, and the sinks hear of the command and of the release with its silence.
    @Test func silenceReleases() {
        let backend = RecordingBackend()
        let h = Self.harness(backend)
        let id = h.open()
        h.send(id, HubHarness.touchpadHello, at: 0)
        h.send(id, #"{"type":"button","button":"right","action":"down"}"#, at: 100)
        let armed = h.transport.schedules.last { $0.0 == id }?.1
        #expect(armed == 100 + ControlSettings().releaseAfterSilence)
        #expect(h.sink.notes.map(\.note) == [.command(.button(.right, .down))])
        h.fire(id, at: 10_100)
        #expect(backend.actions == [.button(.right, .down), .button(.right, .up)])
        #expect(
            h.sink.notes.map(\.note).last == .releasedAfterSilence(silence: 10_000, released: [.button(.right, .up)]))
        #expect(h.sink.notes.allSatisfy { $0.session == "1" })
        // Nothing held any more: no silence timer.
        #expect(h.transport.armed[id] == nil)
    }

    /// With control off nothing reaches a backend, and control messages get control_off.
    @Test func controlOffSendsNothing() {
        let backend = RecordingBackend()
        let h = Self.harness(backend, active: false)
        let id = h.open()
        h.send(id, HubHarness.touchpadHello, at: 0)
        h.send(id, HubHarness.pointer("down", x: 100, y: 100, t: 1000), at: 1)
        h.send(id, HubHarness.pointer("move", x: 150, y: 100, t: 1010), at: 2)
        h.send(id, #"{"type":"key","key":"Enter"}"#, at: 3)
        #expect(backend.actions.isEmpty)
        #expect(h.drain(id).frames.contains { $0.contains(#""code":"control_off""#) })
    }
}
