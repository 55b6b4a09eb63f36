import GestureControl
import GestureProtocol
import Testing

@testable import GesturePadServer

/// The playout through the hub (docs/control.md "Playout: smooth on a real Wi-Fi"): moves that
/// arrive together are handed to the backend spaced like the finger made them, at the
/// connection's timer; a close hands over whatever waits at once.
struct PlayoutHubTests {
    static func stroke(_ h: HubHarness, _ pad: Int) {
        h.send(pad, HubHarness.pointer("down", x: 100, y: 100, t: 1000), at: 10)
        h.send(pad, HubHarness.pointer("move", x: 104, y: 100, t: 1008), at: 18)
    }

    @Test func aBurstIsHandedOverAtTheTimerSpacedLikeTheFinger() {
        let backend = SwitchableBackend()
        let h = ControlStatusHubTests.harness(backend)
        let pad = ControlStatusHubTests.touchpad(h)
        Self.stroke(h, pad)
        #expect(backend.actions == [.motion(dx: 4, dy: 0)])
        // Three moves 8 ms apart (page clock) arrive together 30 ms late.
        for (i, x) in [108, 112, 116].enumerated() {
            h.send(pad, HubHarness.pointer("move", x: Double(x), y: 100, t: 1016 + 8 * Double(i)), at: 56)
        }
        #expect(backend.actions.count == 2, "one at once, the rest wait")
        let deadline = h.transport.armed[pad]
        #expect(deadline.map { abs($0 - 62) < 1e-6 } == true, "the next ¾ of 8 ms after the last")
        h.fire(pad, at: 62)
        #expect(backend.actions.count == 3)
        #expect(h.transport.armed[pad].map { abs($0 - 68) < 1e-6 } == true)
        h.fire(pad, at: 68)
        #expect(backend.actions == [.motion(dx: 4, dy: 0), .motion(dx: 4, dy: 0), .motion(dx: 4, dy: 0), .motion(dx: 4, dy: 0)])
    }

    @Test func aCloseHandsOverWhatWaitsAtOnce() {
        let backend = SwitchableBackend()
        let h = ControlStatusHubTests.harness(backend)
        let pad = ControlStatusHubTests.touchpad(h)
        Self.stroke(h, pad)
        for (i, x) in [108, 112, 116].enumerated() {
            h.send(pad, HubHarness.pointer("move", x: Double(x), y: 100, t: 1016 + 8 * Double(i)), at: 56)
        }
        #expect(backend.actions.count == 2)
        h.handle(.peerClosed(pad))
        h.handle(.closed(pad, now: 57))
        let motion = backend.actions.reduce(0) { sum, action in
            if case .motion(let dx, _) = action { sum + dx } else { sum }
        }
        #expect(motion == 16)
    }
}
