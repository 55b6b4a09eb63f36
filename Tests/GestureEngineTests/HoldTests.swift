import GestureEngine
import Testing

/// longPress, longPressDrag, repeat and timedPress, driven by a virtual clock (GESTURES.md).
struct HoldTests {
    /// A still finger: longPress begins exactly at longPressDuration with no further input,
    /// timedPress ticks every interval, repeat from repeatDelay every repeatInterval.
    @Test func holdTimersFireFromTheClockAlone() {
        var d = EngineDriver()
        d.down(1, 100, 200, t: 1000)
        #expect(d.engine.nextDeadline == 1100)
        d.advance(to: 1499.99)
        #expect(d.all(.longPress).isEmpty)
        #expect(d.all(.timedPress).map(\.phase) == [.began, .changed, .changed, .changed])
        d.advance(to: 1500)
        // Equal deadlines: longPress, timedPress, repeat.
        #expect(d.events.suffix(3).map(\.gesture) == [.longPress, .timedPress, .repeat])
        let lp = d.all(.longPress)
        #expect(lp.count == 1 && lp.first?.t == 1500 && lp.first?.number("duration") == 500)
        d.advance(to: 1750)
        #expect(d.all(.repeat).map { $0.number("count") } == [1, 2, 3])
        #expect(d.all(.repeat).map(\.t) == [1500, 1600, 1700])
        d.up(1, 100, 200, t: 1800)
        #expect(d.take().suffix(5) == ["repeat.ended", "release.ended", "longPress.ended", "timedPress.ended", "end.ended"])
        #expect(d.all(.timedPress).last?.number("duration") == 800)
        #expect(d.all(.tap).isEmpty)
        #expect(d.engine.nextDeadline == nil)
    }

    /// A press released before the first tick has no timedPress; released at it has began + ended.
    @Test func timedPressNeedsTheFirstTick() {
        var d = EngineDriver { $0.tapMaxDuration = 1000 }
        d.tap(1, 10, 10, at: 0, duration: 99)
        #expect(d.all(.timedPress).isEmpty)
        var e = EngineDriver()
        e.tap(1, 10, 10, at: 0, duration: 100)
        #expect(e.all(.timedPress).map(\.phase) == [.began, .ended])
    }

    /// Moving beyond slop before the deadline: no longPress, no repeat, timedPress cancelled.
    @Test func movingBeyondSlopStopsHoldGestures() {
        var d = EngineDriver()
        d.down(1, 100, 100, t: 0)
        d.advance(to: 250)
        d.move(1, 111, 100, t: 300)
        d.flush()
        #expect(d.take().suffix(2) == ["drag.began", "timedPress.cancelled"])
        d.advance(to: 2000)
        #expect(d.all(.longPress).isEmpty && d.all(.repeat).isEmpty)
        #expect(d.engine.nextDeadline == nil)
    }

    /// A second finger during a long press cancels it (and timedPress), ends repeats.
    @Test func secondFingerDuringLongPress() {
        var d = EngineDriver()
        d.down(1, 100, 100, t: 0)
        d.advance(to: 600)
        _ = d.take()
        d.down(2, 200, 100, t: 650)
        #expect(d.take() == ["press.ended", "longPress.cancelled", "timedPress.cancelled"])
        // A continuous gesture keeps the fingers it ran with at its cancelled.
        #expect(d.all(.longPress).last?.pointers == 1 && d.all(.timedPress).last?.pointers == 1)
        #expect(d.all(.press).last?.pointers == 2)
        d.advance(to: 2000)
        #expect(d.take().isEmpty)
        d.up(1, 100, 100, t: 2100)
        d.up(2, 200, 100, t: 2110)
        #expect(d.all(.longPress).map(\.phase) == [.began, .cancelled])
        #expect(d.all(.tap).isEmpty)
    }

    /// After longPress began, moving more than slop from its location begins longPressDrag
    /// (never a drag); release ends it, then longPress.
    @Test func longPressDrag() {
        var d = EngineDriver()
        d.down(1, 200, 300, t: 0)
        d.advance(to: 520)
        d.move(1, 200, 305, t: 540)
        d.move(1, 200, 310, t: 560)
        d.flush()
        #expect(d.all(.longPressDrag).isEmpty)
        d.move(1, 200, 310.5, t: 580)
        d.flush()
        let began = d.all(.longPressDrag)
        #expect(began.map(\.phase) == [.began])
        #expect(began.first?.number("startY") == 300 && began.first?.number("dy") == 10.5)
        d.stroke(1, from: (200, 310.5), to: (200, 400), start: 580, duration: 100, steps: 5)
        d.up(1, 200, 400, t: 700)
        #expect(
            d.take().suffix(5) == [
                "longPressDrag.changed", "release.ended", "longPressDrag.ended", "longPress.ended", "end.ended",
            ])
        #expect(d.all(.drag).isEmpty && d.all(.swipe).isEmpty)
        #expect(d.all(.longPressDrag).last?.number("dy") == 100)
    }

    /// A second finger ends a longPressDrag and cancels the longPress.
    @Test func secondFingerEndsLongPressDrag() {
        var d = EngineDriver()
        d.down(1, 100, 100, t: 0)
        d.advance(to: 500)
        d.move(1, 100, 120, t: 550)
        d.flush()
        _ = d.take()
        d.down(2, 300, 300, t: 600)
        #expect(d.take() == ["press.ended", "longPressDrag.ended", "longPress.cancelled"])
    }

    /// A two-finger contact has no hold gestures at all.
    @Test func onlyOneFingerContacts() {
        var d = EngineDriver()
        d.down(1, 100, 100, t: 0)
        d.down(2, 150, 100, t: 20)
        d.advance(to: 3000)
        #expect(d.all(.longPress).isEmpty && d.all(.repeat).isEmpty && d.all(.timedPress).isEmpty)
        d.up(2, 150, 100, t: 3001)
        d.advance(to: 6000)
        #expect(d.all(.longPress).isEmpty && d.all(.repeat).isEmpty)
    }

    /// A client whose clock jumps by days does not make the engine emit millions of ticks.
    @Test func clockJumpIsBounded() {
        var d = EngineDriver()
        d.down(1, 100, 100, t: 0)
        d.advance(to: 1e10)
        #expect(d.events.count < 25_000)
        #expect(d.engine.nextDeadline.map { $0 > 1e10 - 1000 } == true)
    }
}
