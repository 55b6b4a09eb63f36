import GestureEngine
import Testing

/// tap, doubleTap, singleTapConfirmed, bounces and sequences (GESTURES.md).
struct TapTests {
    /// A short tap emits press, release, tap(1), end; singleTapConfirmed fires exactly at up + multiTapInterval.
    @Test func singleTapConfirmedFiresAtItsDeadline() {
        var d = EngineDriver()
        d.tap(1, 100, 100, at: 1000, duration: 60)
        #expect(d.take() == ["press.ended", "release.ended", "tap.ended", "end.ended"])
        #expect(d.engine.nextDeadline == 1360)
        d.advance(to: 1359.9)
        #expect(d.take().isEmpty)
        d.advance(to: 1360)
        let e = d.takeEvents()
        #expect(e.map(\.gesture) == [.singleTapConfirmed])
        #expect(e.first?.t == 1360)
        #expect(e.first?.x == 100 && e.first?.pointers == 1)
    }

    /// A tap lasting exactly tapMaxDuration is a tap (≤); one ms longer is not.
    @Test func tapMaxDurationBoundary() {
        var d = EngineDriver()
        d.tap(1, 50, 50, at: 0, duration: 250)
        #expect(d.all(.tap).count == 1)
        var e = EngineDriver()
        e.tap(1, 50, 50, at: 0, duration: 250.5)
        #expect(e.all(.tap).isEmpty)
    }

    /// A finger that wanders exactly slop is still a tap; beyond slop it is not.
    @Test func slopBoundary() {
        var d = EngineDriver()
        d.down(1, 100, 100, t: 0)
        d.move(1, 110, 100, t: 20)
        d.up(1, 110, 100, t: 40)
        #expect(d.all(.tap).count == 1)
        var e = EngineDriver()
        e.down(1, 100, 100, t: 0)
        e.move(1, 110.01, 100, t: 20)
        e.up(1, 100, 100, t: 40)
        #expect(e.all(.tap).isEmpty)
    }

    /// An up location beyond slop (no move before it) makes no tap.
    @Test func upLocationCountsForSlop() {
        var d = EngineDriver()
        d.down(1, 100, 100, t: 0)
        d.up(1, 130, 100, t: 40)
        #expect(d.all(.tap).isEmpty)
        #expect(d.all(.end).count == 1)
    }

    /// Two taps 150 ms apart: tap(1), tap(2), doubleTap at the first tap; no singleTapConfirmed.
    @Test func doubleTap() {
        var d = EngineDriver()
        d.tap(1, 200, 400, at: 1000)
        d.tap(2, 204, 403, at: 1200)
        d.advance(to: 5000)
        #expect(d.all(.tap).map { $0.number("count") } == [1, 2])
        let dt = d.all(.doubleTap)
        #expect(dt.count == 1)
        #expect(dt.first?.x == 200 && dt.first?.y == 400)
        #expect(d.all(.singleTapConfirmed).isEmpty)
        #expect(d.summary.suffix(4) == ["release.ended", "tap.ended", "doubleTap.ended", "end.ended"])
    }

    /// A second tap starting exactly multiTapInterval after the last up counts on only if the
    /// confirmation timer has not fired: timers due at or before a message's t fire first.
    @Test func lateSecondTapStartsNewSequence() {
        var d = EngineDriver()
        d.tap(1, 100, 100, at: 0, duration: 50)  // up at 50
        d.tap(2, 100, 100, at: 350, duration: 50)
        #expect(d.all(.tap).map { $0.number("count") } == [1, 1])
        #expect(d.all(.singleTapConfirmed).count == 1)
        #expect(d.all(.doubleTap).isEmpty)
    }

    /// A second tap 299 ms after the first up counts on (≤ multiTapInterval).
    @Test func secondTapJustInTime() {
        var d = EngineDriver()
        d.tap(1, 100, 100, at: 0, duration: 50)
        d.tap(2, 100, 100, at: 349, duration: 50)
        #expect(d.all(.tap).map { $0.number("count") } == [1, 2])
    }

    /// A second tap farther than multiTapSlop starts a new sequence; the superseded one is still
    /// confirmed, right after the new contact's end, and the new one later by its timer.
    @Test func supersededSequenceIsConfirmed() {
        var d = EngineDriver()
        d.tap(1, 50, 50, at: 0, duration: 50)
        d.tap(2, 300, 50, at: 150, duration: 50)
        let names = d.take()
        #expect(names.suffix(3) == ["tap.ended", "end.ended", "singleTapConfirmed.ended"])
        let confirmed = d.all(.singleTapConfirmed)
        #expect(confirmed.first?.x == 50 && confirmed.first?.t == 200)
        d.advance(to: 1000)
        #expect(d.all(.singleTapConfirmed).map(\.x) == [50, 300])
        #expect(d.all(.tap).map { $0.number("count") } == [1, 1])
    }

    /// A tap with another finger count starts a new sequence.
    @Test func fingerCountMustMatch() {
        var d = EngineDriver()
        d.tap(1, 100, 100, at: 0)
        d.down(2, 100, 100, t: 150)
        d.down(3, 140, 100, t: 160)
        d.up(2, 100, 100, t: 200)
        d.up(3, 140, 100, t: 210)
        #expect(d.all(.tap).map { $0.number("count") } == [1, 1])
        #expect(d.all(.tap).map(\.pointers) == [1, 2])
        #expect(d.all(.tap).last?.x == 120)
    }

    /// A tap starting sooner than multiTapMinInterval after the last tap's up is a bounce: no tap,
    /// the sequence untouched, and its own up counts as the last tap's up.
    @Test func bounce() {
        var d = EngineDriver()
        d.tap(1, 100, 100, at: 0, duration: 50)  // up 50
        d.tap(2, 100, 100, at: 80, duration: 20)  // starts 30 after: bounce, up at 100
        #expect(d.all(.tap).count == 1)
        #expect(d.all(.press).count == 2 && d.all(.release).count == 2 && d.all(.end).count == 2)
        d.tap(3, 100, 100, at: 130, duration: 20)  // 30 after the bounce's up: a bounce again
        #expect(d.all(.tap).count == 1)
        d.tap(4, 100, 100, at: 200, duration: 20)  // 50 after: counts on
        #expect(d.all(.tap).map { $0.number("count") } == [1, 2])
        #expect(d.all(.singleTapConfirmed).isEmpty)
    }

    /// A bounce does not cancel the pending confirmation: it still fires at its original deadline.
    @Test func bounceKeepsConfirmationPending() {
        var d = EngineDriver()
        d.tap(1, 100, 100, at: 0, duration: 50)
        d.tap(2, 100, 100, at: 70, duration: 20)
        #expect(d.all(.singleTapConfirmed).isEmpty)
        d.advance(to: 349)
        #expect(d.all(.singleTapConfirmed).isEmpty)
        d.advance(to: 350)
        #expect(d.all(.singleTapConfirmed).map(\.t) == [350])
    }

    /// A contact that started in time but is no tap (a drag) makes the confirmation wait for its end.
    @Test func confirmationWaitsForContact() {
        var d = EngineDriver()
        d.tap(1, 100, 100, at: 0, duration: 50)
        d.down(1, 100, 100, t: 200)
        d.stroke(1, from: (100, 100), to: (100, 300), start: 200, duration: 400, steps: 10)
        d.flush()
        d.advance(to: 600)
        #expect(d.all(.singleTapConfirmed).isEmpty)
        d.up(1, 100, 300, t: 700)
        let names = d.take()
        #expect(names.suffix(2) == ["end.ended", "singleTapConfirmed.ended"])
        #expect(d.all(.singleTapConfirmed).first?.t == 700)
    }

    /// A cancelled contact is not a tap: a waiting confirmation fires right after its end.
    @Test func cancelledContactConfirms() {
        var d = EngineDriver()
        d.tap(1, 100, 100, at: 0, duration: 50)
        d.down(2, 100, 100, t: 200)
        d.cancel(2, t: 220)
        #expect(d.take().suffix(2) == ["end.ended", "singleTapConfirmed.ended"])
        #expect(d.all(.tap).count == 1)
    }

    /// A confirmed sequence is closed: a later tap near it starts a new sequence.
    @Test func triple() {
        var d = EngineDriver()
        d.tap(1, 100, 100, at: 0)
        d.tap(1, 100, 100, at: 150)
        d.tap(1, 100, 100, at: 300)
        #expect(d.all(.tap).map { $0.number("count") } == [1, 2, 3])
        #expect(d.all(.doubleTap).count == 1)
    }

    /// A multi-finger tap reports the centroid of the first downs and the most fingers.
    @Test func twoFingerTap() {
        var d = EngineDriver()
        d.down(1, 100, 100, t: 0)
        d.down(2, 200, 100, t: 10)
        d.up(1, 100, 100, t: 80)
        d.up(2, 200, 100, t: 90)
        let tap = d.all(.tap)
        #expect(tap.count == 1 && tap.first?.x == 150 && tap.first?.pointers == 2)
        #expect(d.all(.end).count == 1)
        #expect(d.all(.release).map(\.pointers) == [2, 2])
    }
}
