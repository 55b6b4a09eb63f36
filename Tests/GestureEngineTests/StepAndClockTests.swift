import GestureEngine
import Testing

/// Steps, clock clamping, the pointer limit and event order rules.
struct StepAndClockTests {
    /// Moves with the same t are one step: all positions apply before judging, one event per gesture.
    @Test func sameTimeMovesAreOneStep() {
        var d = EngineDriver()
        d.down(1, 100, 300, t: 0)
        d.down(2, 200, 300, t: 5)
        // Alone, finger 1's move would rotate the pair (angle > 10°); with finger 2 it is a scroll.
        d.move(1, 100, 330, t: 20)
        #expect(d.engine.hasPendingStep)
        d.move(2, 200, 330, t: 20)
        d.move(3, 0, 0, t: 20)  // an unknown touch pointer: ignored
        d.flush()
        #expect(d.take().suffix(1) == ["scroll.began"])
        #expect(d.all(.rotate).isEmpty)
        #expect(!d.engine.hasPendingStep)
    }

    /// A message with another t ends the held step before it is processed.
    @Test func nextMessageEndsTheStep() {
        var d = EngineDriver()
        d.down(1, 100, 100, t: 0)
        d.move(1, 120, 100, t: 10)
        #expect(d.all(.drag).isEmpty)
        d.up(1, 120, 100, t: 20)
        #expect(d.summary == ["press.ended", "drag.began", "release.ended", "drag.ended", "end.ended"])
    }

    /// t going backwards is clamped to the last t seen: events stay in time order.
    @Test func backwardsTimeIsClamped() {
        var d = EngineDriver()
        d.down(1, 100, 100, t: 1000)
        d.up(1, 100, 100, t: 900)
        #expect(d.all(.end).first?.t == 1000)
        #expect(d.all(.end).first?.number("duration") == 0)
        #expect(d.engine.now == 1000)
    }

    /// A down beyond the pointer limit is refused and moves no clock; a repeated down is ignored.
    @Test func pointerLimit() {
        var d = EngineDriver(maxPointers: 2)
        #expect(d.down(1, 10, 10, t: 0) == .accepted)
        #expect(d.down(2, 20, 10, t: 1) == .accepted)
        #expect(d.down(3, 30, 10, t: 900) == .tooManyPointers)
        #expect(d.engine.now == 1)
        #expect(d.all(.press).count == 2)
        #expect(d.down(2, 20, 10, t: 2) == .accepted)
        #expect(d.all(.press).count == 2)
    }

    /// A ping-like clock message fires due timers.
    @Test func clockMessageFiresTimers() {
        var d = EngineDriver()
        d.tap(1, 10, 10, at: 0)
        d.send(.clock(t: 400))
        #expect(d.all(.singleTapConfirmed).count == 1)
    }

    /// Every event carries the most fingers so far (discrete) or the phase's fingers (continuous).
    @Test func pointersField() {
        var d = EngineDriver()
        d.down(1, 100, 300, t: 0)
        d.down(2, 200, 300, t: 5)
        d.down(3, 300, 300, t: 8)
        d.up(3, 300, 300, t: 10)
        for i in 1...3 {
            d.move(1, 100, 300 + 10 * Double(i), t: 10 + 16 * Double(i))
            d.move(2, 200, 300 + 10 * Double(i), t: 10 + 16 * Double(i))
        }
        d.up(1, 100, 330, t: 100)
        #expect(d.all(.scroll).allSatisfy { $0.pointers == 2 })
        #expect(d.all(.release).allSatisfy { $0.pointers == 3 })
        #expect(d.all(.press).map(\.pointers) == [1, 2, 3])
    }
}
