import GestureControl
import GestureEngine
import Testing

/// Two-finger scroll is the wheel; pinch is Control + wheel (CONTROL.md "two-finger scroll",
/// "pinch").
struct ScrollZoomTests {
    /// Two fingers (1 and 2) down at (100, 300) and (200, 300).
    static func twoFingers(_ d: inout MapperDriver) {
        d.down(1, 100, 300, t: 0)
        d.down(2, 200, 300, t: 10)
    }

    /// Moves both fingers by (dx, dy) per 16 ms frame over `steps` frames from t 10.
    static func scroll(_ d: inout MapperDriver, dx: Double, dy: Double, steps: Int) {
        for i in 1...steps {
            let s = Double(i)
            d.moveFingers([(1, 100 + dx * s, 300 + dy * s), (2, 200 + dx * s, 300 + dy * s)], t: 10 + 16 * s)
        }
    }

    /// Natural scroll: fingers moving up scroll down; the fractional wheel sums to travel / 24; wheelStop at the lift (kinetic scrolling off).
    @Test func naturalScroll() {
        var d = MapperDriver { $0.kineticScrolling = false }
        Self.twoFingers(&d)
        Self.scroll(&d, dx: 0, dy: -12, steps: 10)  // 120 px up
        d.up(1, 100, 180, t: 200)
        d.up(2, 200, 180, t: 205)
        let wheel = d.actions.wheel
        #expect(abs(wheel.dy - 120.0 / 24) < 1e-9)
        #expect(wheel.dx == 0)
        #expect(d.actions.contains { if case .wheel(_, let dy) = $0 { dy != dy.rounded() } else { false } })
        #expect(d.actions.last == .wheelStop)
        #expect(d.actions.filter { $0 == .wheelStop }.count == 1)
        #expect(d.actions.motion == (0, 0) && d.actions.presses.isEmpty)
    }

    /// Natural scroll off: fingers moving up scroll up; both axes are wheeled.
    @Test func reversedScroll() {
        var d = MapperDriver { $0.naturalScroll = false }
        Self.twoFingers(&d)
        Self.scroll(&d, dx: 6, dy: -12, steps: 10)
        d.up(1, 160, 180, t: 200)
        let wheel = d.actions.wheel
        #expect(abs(wheel.dy - -120.0 / 24) < 1e-9)
        #expect(abs(wheel.dx - 60.0 / 24) < 1e-9)
    }

    /// Natural scroll on the horizontal axis: fingers moving right scroll left.
    @Test func naturalHorizontal() {
        var d = MapperDriver()
        Self.twoFingers(&d)
        Self.scroll(&d, dx: 12, dy: 0, steps: 10)
        d.up(1, 220, 300, t: 200)
        #expect(abs(d.actions.wheel.dx - -120.0 / 24) < 1e-9)
    }

    /// Scroll speed and distance per detent scale the wheel.
    @Test func scrollSpeedAndDetent() {
        var d = MapperDriver { s in
            s.scrollSpeed = 2
            s.scrollDistancePerDetent = 30
        }
        Self.twoFingers(&d)
        Self.scroll(&d, dx: 0, dy: 15, steps: 10)
        d.cancel(nil, t: 200)
        #expect(abs(d.actions.wheel.dy - -150.0 / 30 * 2) < 1e-9)
        #expect(d.actions.last == .wheelStop)
    }

    /// Spreading two fingers zooms in: Control down, one wheel up per 1.25× scale step, Control up at the end.
    @Test func pinchInSteps() {
        var d = MapperDriver()
        Self.twoFingers(&d)  // span 100
        for i in 1...10 {
            let t = 10 + 10 * Double(i)
            d.move(1, 100 - 5 * Double(i), 300, t: t)
            d.move(2, 200 + 5 * Double(i), 300, t: t)
        }  // span 200: scale 2 → trunc(log 2 / log 1.25) = 3 steps
        d.up(1, 50, 300, t: 130)
        #expect(
            d.actions == [
                .key(.named(.control), .down), .wheel(dx: 0, dy: -1), .wheel(dx: 0, dy: -1), .wheel(dx: 0, dy: -1),
                .key(.named(.control), .up),
            ])
    }

    /// Pinching fingers together zooms out (wheel down); going back and forth steps both ways.
    @Test func pinchOutAndBack() {
        var d = MapperDriver()
        Self.twoFingers(&d)
        d.move(1, 125, 300, t: 30)
        d.move(2, 175, 300, t: 30)  // scale 0.5: −3 steps
        d.move(1, 100, 300, t: 60)
        d.move(2, 200, 300, t: 60)  // scale 1: back to 0
        d.cancel(nil, t: 90)
        let down = HostAction.wheel(dx: 0, dy: 1)
        let up = HostAction.wheel(dx: 0, dy: -1)
        #expect(
            d.actions == [
                .key(.named(.control), .down), down, down, down, up, up, up, .key(.named(.control), .up),
            ])
    }

    /// A pinch that never reaches a whole step presses no Control and wheels nothing.
    @Test func smallPinchDoesNothing() {
        var d = MapperDriver()
        Self.twoFingers(&d)
        d.move(2, 220, 300, t: 30)  // span 120: scale 1.2 < 1.25
        d.up(1, 100, 300, t: 60)
        #expect(d.events.contains { $0.gesture == .pinch })
        #expect(d.actions.isEmpty)
    }

    /// With pinch zoom off, a pinch does nothing; rotating does nothing either way.
    @Test func pinchZoomOffAndRotate() {
        var d = MapperDriver { $0.pinchZoom = false }
        Self.twoFingers(&d)
        d.move(2, 300, 300, t: 30)
        d.up(1, 100, 300, t: 60)
        #expect(d.actions.isEmpty)
        var r = MapperDriver()
        Self.twoFingers(&r)
        r.move(2, 150 + 50 * 0.94, 300 + 50 * 0.34, t: 30)  // 20° around the centroid, span unchanged
        r.move(1, 150 - 50 * 0.94, 300 - 50 * 0.34, t: 30)
        r.up(1, 103, 283, t: 60)
        #expect(r.events.contains { $0.gesture == .rotate })
        #expect(r.actions.isEmpty)
    }

    /// The wheel steps a pinch makes for a sequence of scales, fed straight to a mapper.
    static func zoomSteps(_ scales: [Double], zoomStep: Double = 1.25) -> [Int] {
        var settings = ControlSettings()
        settings.zoomStep = zoomStep
        var mapper = ControlMapper(settings: settings, gestures: GestureConfig())
        var actions: [HostAction] = []
        mapper.handle(.down(PointerSample(id: 1, x: 0, y: 0, t: 0)), events: [], into: &actions)
        var steps: [Int] = []
        for (i, scale) in scales.enumerated() {
            let event = GestureEvent(
                gesture: .pinch, phase: i == 0 ? .began : .changed, t: 1, x: 0, y: 0, pointers: 2,
                detail: .pinch(scale: scale, velocity: 0))
            actions.removeAll()
            mapper.handle(events: [event], into: &actions)
            var n = 0
            for case .wheel(_, let dy) in actions { n -= Int(dy) }
            steps.append(n)
        }
        return steps
    }

    /// Zoom steps count whole factors of zoomStep toward zero (trunc of the log ratio), bounded to ±40 per pinch.
    @Test func zoomStepCount() {
        #expect(Self.zoomSteps([1.25, 1.5625, 1.24, 1]) == [1, 1, -2, 0])
        #expect(Self.zoomSteps([0.81, 0.8, 0.64, 0.8]) == [0, -1, -1, 1])
        #expect(Self.zoomSteps([1e300, 0, .infinity, .nan, 2]) == [40, -80, 80, 0, -37])
        #expect(Self.zoomSteps([2], zoomStep: 0.5) == [3])  // a zoom step not > 1 counts as 1.25
        #expect(Self.zoomSteps([4], zoomStep: 2) == [2])
    }
}
