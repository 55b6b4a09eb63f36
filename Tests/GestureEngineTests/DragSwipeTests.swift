import GestureEngine
import Testing

/// drag (velocity, prediction, phases) and swipe (GESTURES.md).
struct DragSwipeTests {
    /// A drag begins only when the centroid moved more than dragMinDistance (>), with ddx since start.
    @Test func dragBeginsAboveThreshold() {
        var d = EngineDriver()
        d.down(1, 100, 100, t: 0)
        d.move(1, 110, 100, t: 16)
        d.flush()
        #expect(d.all(.drag).isEmpty)
        d.move(1, 110.5, 100, t: 32)
        d.flush()
        let began = d.all(.drag)
        #expect(began.map(\.phase) == [.began])
        #expect(began.first?.number("dx") == 10.5 && began.first?.number("ddx") == 10.5)
        #expect(began.first?.number("startX") == 100)
        d.move(1, 120, 100, t: 48)
        d.flush()
        #expect(d.all(.drag).last?.number("ddx") == 9.5)
    }

    /// Velocity is the least-squares slope over the 100 ms window; the prediction projects it.
    @Test func velocityAndPrediction() {
        var d = EngineDriver()
        d.down(1, 0, 100, t: 0)
        // 1 px/ms for 200 ms.
        d.stroke(1, from: (0, 100), to: (200, 100), start: 0, duration: 200, steps: 20)
        d.flush()
        let last = d.all(.drag).last
        let vx = last?.number("vx") ?? 0
        #expect(abs(vx - 1000) < 1e-6)
        let pdx = last?.number("predictedDx") ?? 0
        #expect(abs(pdx - (200 + 1.0 * 0.998 / 0.002)) < 1e-6)
        #expect(abs((last?.number("predictedX") ?? 0) - pdx) < 1e-9)
    }

    /// Only samples within velocityWindow of the newest count: an old fast start is forgotten.
    @Test func velocityWindow() {
        var d = EngineDriver()
        d.down(1, 0, 0, t: 0)
        d.move(1, 100, 0, t: 10)  // fast
        d.stroke(1, from: (100, 0), to: (150, 0), start: 10, duration: 500, steps: 50)  // 0.1 px/ms
        d.flush()
        let vx = d.all(.drag).last?.number("vx") ?? 0
        #expect(abs(vx - 100) < 1e-6)
    }

    /// A fast flick right: drag began/ended, then swipe right with distance and velocity.
    @Test func swipeRight() {
        var d = EngineDriver()
        d.down(1, 100, 500, t: 0)
        d.stroke(1, from: (100, 500), to: (300, 500), start: 0, duration: 150, steps: 10)
        d.up(1, 300, 500, t: 150)
        #expect(d.take().suffix(4) == ["release.ended", "drag.ended", "swipe.ended", "end.ended"])
        let s = d.all(.swipe).first
        #expect(s?.text("direction") == "right")
        #expect(s?.number("distance") == 200)
        #expect(abs((s?.number("velocity") ?? 0) - 1333.333) < 0.01)
        #expect(s?.number("duration") == 150 && s?.x == 300)
    }

    /// A drag that stopped velocityStopTime before the release has velocity 0: no swipe.
    @Test func stoppedBeforeReleaseIsNoSwipe() {
        var d = EngineDriver()
        d.down(1, 100, 500, t: 0)
        d.stroke(1, from: (100, 500), to: (300, 500), start: 0, duration: 150, steps: 10)
        d.up(1, 300, 500, t: 190)
        #expect(d.all(.swipe).isEmpty)
        #expect(d.all(.drag).last?.number("vx") == 0)
        var e = EngineDriver()
        e.down(1, 100, 500, t: 0)
        e.stroke(1, from: (100, 500), to: (300, 500), start: 0, duration: 150, steps: 10)
        e.up(1, 300, 500, t: 189.9)
        #expect(e.all(.swipe).count == 1)
    }

    /// swipeMinDistance is met when reached (≥); a tie between axes is horizontal.
    @Test func swipeDistanceBoundaryAndTie() {
        var d = EngineDriver()
        d.down(1, 100, 100, t: 0)
        d.stroke(1, from: (100, 100), to: (70, 130), start: 0, duration: 30, steps: 3)
        d.up(1, 70, 130, t: 30)
        let s = d.all(.swipe)
        #expect(s.count == 1 && s.first?.text("direction") == "left" && s.first?.number("distance") == 30)
    }

    /// A flick back against the travel is no swipe.
    @Test func flickBackIsNoSwipe() {
        var d = EngineDriver()
        d.down(1, 100, 100, t: 0)
        d.stroke(1, from: (100, 100), to: (300, 100), start: 0, duration: 400, steps: 20)
        d.stroke(1, from: (300, 100), to: (220, 100), start: 400, duration: 80, steps: 8)
        d.up(1, 220, 100, t: 480)
        #expect(d.all(.drag).last?.number("vx").map { $0 < -300 } == true)
        #expect(d.all(.swipe).isEmpty)
    }

    /// A contact longer than swipeMaxDuration makes no swipe; one exactly that long does.
    @Test(arguments: [(1000.0, 1), (1000.5, 0)])
    func swipeMaxDuration(upAt: Double, swipes: Int) {
        var d = EngineDriver()
        d.down(1, 100, 100, t: 0)
        d.move(1, 100, 120, t: 50)  // the drag begins; no long press any more
        d.advance(to: 900)
        d.stroke(1, from: (100, 120), to: (100, 320), start: 900, duration: 100, steps: 10)
        d.up(1, 100, 320, t: upAt)
        #expect(d.all(.swipe).count == swipes)
        #expect(d.all(.longPress).isEmpty)
    }

    /// Three fingers swiping up: a drag with pointers 3 and a swipe up; lifting fingers one by
    /// one ends the three-finger phase, and the swipe is judged on it.
    @Test func threeFingerSwipe() {
        var d = EngineDriver()
        d.down(1, 100, 600, t: 0)
        d.down(2, 150, 600, t: 5)
        d.down(3, 200, 600, t: 10)
        for i in 1...10 {
            let y = 600 - 20 * Double(i)
            let t = 10 + 12 * Double(i)
            d.move(1, 100, y, t: t)
            d.move(2, 150, y, t: t)
            d.move(3, 200, y, t: t)
        }
        d.up(1, 100, 400, t: 135)
        d.up(2, 150, 400, t: 138)
        d.up(3, 200, 400, t: 141)
        let drags = d.all(.drag).filter { $0.phase != .changed }
        #expect(drags.map(\.phase) == [.began, .ended])
        #expect(drags.allSatisfy { $0.pointers == 3 })
        let s = d.all(.swipe)
        #expect(s.count == 1 && s.first?.text("direction") == "up" && s.first?.pointers == 3)
        #expect(s.first?.x == 150 && s.first?.y == 400)
    }

    /// A finger coming down ends the one-finger drag; the three-finger phase starts afresh.
    @Test func fingerChangeEndsDrag() {
        var d = EngineDriver()
        d.down(1, 100, 100, t: 0)
        d.stroke(1, from: (100, 100), to: (150, 100), start: 0, duration: 50, steps: 5)
        d.flush()
        _ = d.take()
        d.down(2, 300, 300, t: 60)
        #expect(d.take() == ["press.ended", "drag.ended"])
        d.down(3, 300, 400, t: 70)
        d.move(1, 150, 115, t: 80)
        d.move(2, 300, 315, t: 80)
        d.move(3, 300, 415, t: 80)
        d.flush()
        let began = d.all(.drag).last
        #expect(began?.phase == .began && began?.pointers == 3 && began?.number("dy") == 15)
    }

    /// A release outside the surface says inside: false; on the edge is inside.
    @Test func releaseInside() {
        var d = EngineDriver(width: 400, height: 800)
        d.tap(1, 400, 800, at: 0)
        d.down(2, 390, 100, t: 1000)
        d.up(2, 401, 100, t: 1040)
        #expect(d.all(.release).map { $0.text("inside") } == ["true", "false"])
        #expect(d.all(.release).last?.number("duration") == 40)
    }
}
