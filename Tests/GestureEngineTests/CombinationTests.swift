import GestureEngine
import Testing

/// Gestures in combination: the spec's rules meeting each other.
struct CombinationTests {
    /// A fast two-finger flick is a scroll, then a swipe with pointers 2 judged on the scroll phase.
    @Test func twoFingerSwipe() {
        var d = EngineDriver()
        d.down(1, 100, 600, t: 0)
        d.down(2, 200, 600, t: 5)
        for i in 1...8 {
            let t = 5 + 12 * Double(i)
            d.move(1, 100, 600 - 25 * Double(i), t: t)
            d.move(2, 200, 600 - 25 * Double(i), t: t)
        }
        d.up(1, 100, 400, t: 105)
        d.up(2, 200, 400, t: 106)
        #expect(d.all(.scroll).filter { $0.phase != .changed }.map(\.phase) == [.began, .ended])
        let s = d.all(.swipe)
        #expect(s.count == 1 && s.first?.text("direction") == "up" && s.first?.pointers == 2)
        #expect(d.all(.drag).isEmpty)
    }

    /// A pinch is never a swipe, however fast.
    @Test func pinchIsNoSwipe() {
        var d = EngineDriver()
        d.down(1, 150, 400, t: 0)
        d.down(2, 250, 400, t: 5)
        for i in 1...6 {
            let t = 5 + 10 * Double(i)
            d.move(1, 150 - 30 * Double(i), 400, t: t)
            d.move(2, 250 + 30 * Double(i), 400, t: t)
        }
        d.up(1, -30, 400, t: 66)
        d.up(2, 430, 400, t: 67)
        #expect(d.all(.pinch).count >= 2)
        #expect(d.all(.swipe).isEmpty)
    }

    /// A long press right after a tap: the confirmation waits for the long press to end, then
    /// fires after its end with its t.
    @Test func tapThenLongPress() {
        var d = EngineDriver()
        d.tap(1, 100, 100, at: 0, duration: 50)
        d.down(2, 100, 100, t: 200)
        d.advance(to: 1000)
        #expect(d.all(.longPress).map(\.phase) == [.began])
        #expect(d.all(.singleTapConfirmed).isEmpty)
        d.up(2, 100, 100, t: 1100)
        #expect(d.take().suffix(2) == ["end.ended", "singleTapConfirmed.ended"])
        #expect(d.all(.singleTapConfirmed).first?.t == 1100)
        #expect(d.all(.tap).count == 1)
    }

    /// A pen that hovers, taps and hovers again: hover ended before press, a pen tap, hover again.
    @Test func penTapBetweenHovers() {
        var d = EngineDriver()
        d.move(3, 10, 10, t: 0, .pen)
        d.down(3, 12, 10, t: 20, .pen)
        d.up(3, 12, 10, t: 80, .pen)
        d.move(3, 20, 10, t: 100, .pen)
        d.send(.leave(id: 3, t: 120))
        #expect(
            d.summary == [
                "hover.began", "hover.ended", "press.ended", "release.ended", "tap.ended", "end.ended", "hover.began",
                "hover.ended",
            ])
        #expect(d.all(.press).first?.text("pointerType") == "pen")
    }

    /// A mouse drag is a drag like a finger's; the mouse hovers again after the button is up.
    @Test func mouseDrag() {
        var d = EngineDriver()
        d.down(1, 100, 100, t: 0, .mouse)
        d.stroke(1, from: (100, 100), to: (300, 100), start: 0, duration: 100, steps: 10)
        d.up(1, 300, 100, t: 100, .mouse)
        d.move(1, 305, 100, t: 120, .mouse)
        d.flush()
        #expect(d.all(.drag).filter { $0.phase != .changed }.map(\.phase) == [.began, .ended])
        #expect(d.all(.swipe).first?.text("direction") == "right")
        #expect(d.all(.hover).map(\.phase) == [.began])
    }

    /// A second sequence's double tap after a confirmed single tap elsewhere.
    @Test func doubleTapAfterConfirmedSingle() {
        var d = EngineDriver()
        d.tap(1, 50, 50, at: 0)
        d.advance(to: 400)
        d.tap(1, 300, 300, at: 500)
        d.tap(1, 302, 301, at: 650)
        #expect(d.all(.singleTapConfirmed).count == 1)
        #expect(d.all(.tap).map { $0.number("count") } == [1, 1, 2])
        #expect(d.all(.doubleTap).first?.x == 300)
    }
}
