import GestureEngine
import Testing

/// Two fingers: scroll, or pinch and rotate at once (GESTURES.md).
struct TwoFingerTests {
    mutating func twoFingers(_ d: inout EngineDriver) {
        d.down(1, 100, 300, t: 0)
        d.down(2, 200, 300, t: 10)
        _ = d.take()
    }

    /// Moving both fingers together is a scroll with centroid translation.
    @Test mutating func scroll() {
        var d = EngineDriver()
        twoFingers(&d)
        for i in 1...10 {
            d.move(1, 100, 300 + 10 * Double(i), t: 10 + 16 * Double(i))
            d.move(2, 200, 300 + 10 * Double(i), t: 10 + 16 * Double(i))
        }
        d.flush()
        let s = d.all(.scroll)
        #expect(s.first?.phase == .began && s.first?.number("dy") == 20 && s.first?.number("ddy") == 20)
        #expect(s.count == 9)
        d.up(1, 100, 400, t: 300)
        #expect(d.take().suffix(2) == ["release.ended", "scroll.ended"])
        #expect(d.all(.scroll).last?.number("dy") == 100)
        #expect(d.all(.pinch).isEmpty && d.all(.rotate).isEmpty)
    }

    /// A brisk scroll (180 px up in 160 ms, lifted at speed) ends in a swipe, as GESTURES.md
    /// requires, with the additive field `ends: "scroll"`; a one-finger flick's says `"drag"`.
    @Test mutating func aFlickedScrollIsASwipeThatEndsAScroll() {
        var d = EngineDriver()
        d.down(1, 150, 600, t: 0)
        d.down(2, 210, 600, t: 0)
        for i in 1...10 {
            d.move(1, 150, 600 - 18 * Double(i), t: 16 * Double(i))
            d.move(2, 210, 600 - 18 * Double(i), t: 16 * Double(i))
        }
        d.up(1, 150, 420, t: 168)
        d.up(2, 210, 420, t: 168)
        let swipe = d.all(.swipe)
        #expect(swipe.count == 1)
        #expect(swipe.first?.pointers == 2 && swipe.first.flatMap { EventFields.value(of: $0, "direction") as? String } == "up")
        #expect(swipe.first.flatMap { EventFields.value(of: $0, "ends") as? String } == "scroll")
        var one = EngineDriver()
        one.down(1, 100, 300, t: 0)
        for i in 1...10 { one.move(1, 100 + 18 * Double(i), 300, t: 16 * Double(i)) }
        one.up(1, 280, 300, t: 168)
        #expect(one.all(.swipe).map { EventFields.value(of: $0, "ends") as? String } == ["drag"])
        // Two fingers down, one lifts, the other flicks: a swipe of pointers 2 that ends a drag.
        var lifted = EngineDriver()
        lifted.down(1, 100, 300, t: 0)
        lifted.down(2, 160, 300, t: 0)
        lifted.up(2, 160, 300, t: 40)
        for i in 1...10 { lifted.move(1, 100 + 18 * Double(i), 300, t: 40 + 16 * Double(i)) }
        lifted.up(1, 280, 300, t: 208)
        let late = lifted.all(.swipe)
        #expect(late.map(\.pointers) == [2] && late.map { EventFields.value(of: $0, "ends") as? String } == ["drag"])
    }

    /// When the span and the centroid thresholds are crossed on the same move, transform wins.
    @Test mutating func transformWinsOnTheSameMove() {
        var d = EngineDriver()
        twoFingers(&d)
        d.move(2, 220, 300, t: 20)  // span +20 (> 16), centroid +10... and one more step
        d.move(1, 95, 300, t: 20)
        d.flush()
        #expect(d.take() == ["pinch.began"])
        #expect(d.all(.scroll).isEmpty)
    }

    /// Spreading fingers: pinch scale = span now / span at start; no scroll follows.
    @Test mutating func pinchScale() {
        var d = EngineDriver()
        twoFingers(&d)
        for i in 1...10 {
            let t = 10 + 10 * Double(i)
            d.move(1, 100 - 5 * Double(i), 300 + 3 * Double(i), t: t)
            d.move(2, 200 + 5 * Double(i), 300 + 3 * Double(i), t: t)
        }
        d.up(1, 50, 330, t: 120)
        let p = d.all(.pinch).filter { $0.phase != .changed }
        #expect(p.map(\.phase) == [.began, .ended])
        #expect(abs((p.last?.number("scale") ?? 0) - 2) < 1e-9)
        #expect(abs((p.last?.number("velocity") ?? 0) - 10) < 1e-9)
        #expect(d.all(.scroll).isEmpty && d.all(.rotate).isEmpty)
    }

    /// The span threshold is crossed when exceeded (>), not when reached.
    @Test mutating func pinchThresholdIsExclusive() {
        var d = EngineDriver()
        twoFingers(&d)
        d.move(2, 216, 300, t: 20)
        d.flush()
        #expect(d.all(.pinch).isEmpty)
        d.move(2, 216.1, 300, t: 30)
        d.flush()
        #expect(d.all(.pinch).count == 1)
    }

    /// Turning the fingers a full 270° clockwise: rotate angle unwraps past ±180.
    @Test mutating func rotationPast180() {
        var d = EngineDriver()
        d.down(1, 150, 300, t: 0)
        d.down(2, 250, 300, t: 1)
        for i in 1...27 {
            let a = Double(i) * 10 * Double.pi / 180
            let t = 1 + 10 * Double(i)
            d.move(1, 200 - 50 * cos(a), 300 - 50 * sin(a), t: t)
            d.move(2, 200 + 50 * cos(a), 300 + 50 * sin(a), t: t)
        }
        d.flush()
        let r = d.all(.rotate)
        #expect(r.first?.phase == .began)
        #expect(abs((r.last?.number("angle") ?? 0) - 270) < 1e-6)
        #expect(d.all(.pinch).isEmpty)
        #expect(abs((r.last?.number("velocity") ?? 0) - 1000) < 1e-6)
    }

    /// Counter-clockwise turns are negative.
    @Test mutating func counterClockwiseIsNegative() {
        var d = EngineDriver()
        twoFingers(&d)
        d.move(2, 150 + 50 * cos(-0.3), 300 + 50 * sin(-0.3), t: 30)
        d.move(1, 150 - 50 * cos(-0.3), 300 - 50 * sin(-0.3), t: 30)
        d.flush()
        let r = d.all(.rotate)
        #expect(r.count == 1 && (r.first?.number("angle") ?? 0) < -17)
    }

    /// Rotate begins first; pinch joins later when its own threshold is crossed.
    @Test mutating func pinchJoinsLater() {
        var d = EngineDriver()
        twoFingers(&d)
        d.move(2, 150 + 50 * cos(0.3), 300 + 50 * sin(0.3), t: 30)
        d.move(1, 150 - 50 * cos(0.3), 300 - 50 * sin(0.3), t: 30)
        d.flush()
        #expect(d.take() == ["rotate.began"])
        d.move(2, 150 + 70 * cos(0.3), 300 + 70 * sin(0.3), t: 40)
        d.move(1, 150 - 70 * cos(0.3), 300 - 70 * sin(0.3), t: 40)
        d.flush()
        #expect(d.take() == ["pinch.began", "rotate.changed"])
    }
}

#if canImport(Glibc)
    import Glibc
#endif
