import GestureEngine
import Testing

/// Cancel and connection close (GESTURES.md "Cancel").
struct CancelTests {
    /// Cancelling one pointer of many cancels the whole contact: cancelled gestures, end cancel,
    /// no tap / swipe / release; the other fingers are ignored until their up.
    @Test func cancelOnePointerOfMany() {
        var d = EngineDriver()
        d.down(1, 100, 300, t: 0)
        d.down(2, 200, 300, t: 10)
        for i in 1...5 {
            d.move(1, 100, 300 + 10 * Double(i), t: 10 + 16 * Double(i))
            d.move(2, 200, 300 + 10 * Double(i), t: 10 + 16 * Double(i))
        }
        d.flush()
        _ = d.take()
        d.cancel(2, t: 100)
        #expect(d.take() == ["scroll.cancelled", "end.ended"])
        #expect(d.all(.end).first?.text("reason") == "cancel")
        #expect(d.all(.end).first?.number("duration") == 100)
        d.move(1, 100, 500, t: 120)
        d.up(1, 100, 500, t: 130)
        #expect(d.take().isEmpty)
        #expect(d.all(.release).isEmpty)
        // A new contact works normally afterwards.
        d.tap(3, 50, 50, at: 200)
        #expect(d.all(.tap).count == 1)
    }

    /// A cancelled drag: drag cancelled, end cancel, no release (timedPress never ticked).
    @Test func cancelDrag() {
        var d = EngineDriver()
        d.down(1, 100, 100, t: 0)
        d.stroke(1, from: (100, 100), to: (200, 100), start: 0, duration: 100, steps: 5)
        d.cancel(1, t: 120)
        #expect(d.summary == ["press.ended", "drag.began", "drag.cancelled", "end.ended"])
    }

    /// A cancelled long press: longPress and timedPress cancelled, timers dropped.
    @Test func cancelDropsTimers() {
        var d = EngineDriver()
        d.down(1, 100, 100, t: 0)
        d.advance(to: 550)
        _ = d.take()
        d.cancel(nil, t: 560)
        #expect(d.take() == ["longPress.cancelled", "timedPress.cancelled", "end.ended"])
        #expect(d.engine.nextDeadline == nil)
    }

    /// Closing the connection cancels the open contact and hovers like cancel "all".
    @Test func closeCancels() {
        var d = EngineDriver()
        d.move(5, 10, 10, t: 0, .mouse)
        d.down(1, 100, 100, t: 10)
        d.stroke(1, from: (100, 100), to: (100, 200), start: 10, duration: 50, steps: 5)
        _ = d.take()
        d.engine.close(at: 70, into: &d.events)
        #expect(d.take() == ["drag.changed", "drag.cancelled", "hover.cancelled", "end.ended"])
    }

    /// A new down of an ignored pointer's id starts afresh.
    @Test func newDownOfIgnoredId() {
        var d = EngineDriver()
        d.down(1, 100, 100, t: 0)
        d.cancel(1, t: 10)
        d.tap(1, 100, 100, at: 100)
        #expect(d.all(.tap).count == 1)
        #expect(d.all(.press).count == 2)
    }
}
