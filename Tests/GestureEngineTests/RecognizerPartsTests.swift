import Testing

@testable import GestureEngine

/// The engine's parts on their own: `TapRecognizer` and `HoverTracker`, fed contacts and moves
/// by hand (the engine's tests drive them through `GestureEngine`).
struct RecognizerPartsTests {
    /// A one-finger contact from `start` to `up`, down at (x, y), within slop.
    static func tapContact(_ start: Double, x: Double = 10, y: Double = 10) -> Contact {
        var c = Contact(startT: start)
        c.maxFingers = 1
        c.downSumX = x
        c.downSumY = y
        c.downCount = 1
        return c
    }

    /// A tap arms `singleTapConfirmed` 300 ms after its up; a second tap in time counts on
    /// (`doubleTap`) and the confirmation that waited for it never fires.
    @Test func aDoubleTapIsNotConfirmedSingle() {
        var taps = TapRecognizer(config: GestureConfig())
        var events: [GestureEvent] = []
        taps.contactBegan()
        let first = taps.judge(Self.tapContact(0), upT: 60, into: &events)
        taps.resolve(first, at: 60, into: &events)
        #expect(first == .newSequence && taps.confirmationDeadline == 360)
        taps.contactBegan()
        #expect(taps.confirmationDeadline == nil, "a contact began: the confirmation waits for its end")
        let second = taps.judge(Self.tapContact(150), upT: 200, into: &events)
        taps.resolve(second, at: 200, into: &events)
        #expect(second == .countedOn && taps.confirmationDeadline == nil)
        #expect(events.map(\.gesture) == [.tap, .tap, .doubleTap])
    }

    /// A lone tap is confirmed when its deadline is fired; a bounce (down within 40 ms of the
    /// last tap's up) leaves the confirmation pending.
    @Test func aLoneTapIsConfirmedAtItsDeadline() {
        var taps = TapRecognizer(config: GestureConfig())
        var events: [GestureEvent] = []
        let first = taps.judge(Self.tapContact(0), upT: 60, into: &events)
        taps.resolve(first, at: 60, into: &events)
        taps.contactBegan()
        let bounce = taps.judge(Self.tapContact(80), upT: 120, into: &events)
        taps.resolve(bounce, at: 120, into: &events)
        #expect(bounce == .bounce && taps.confirmationDeadline == 360)
        taps.fireConfirmation(at: 360, into: &events)
        #expect(events.map(\.gesture) == [.tap, .singleTapConfirmed] && events.last?.t == 360)
        taps.fireConfirmation(at: 400, into: &events)
        #expect(events.count == 2, "fired once")
    }

    /// Hover: `began` at the first step, `changed` after, at most `limit` pointers, `ended`
    /// where a pointer goes down, `cancelled` for every one on a cancel of all.
    @Test func hoversBeginChangeAndEnd() {
        var hovers = HoverTracker(limit: 2, minInterval: 0)
        var events: [GestureEvent] = []
        let tracked = [
            hovers.move(PointerSample(id: 1, x: 1, y: 1, t: 0, pointerType: .mouse)),
            hovers.move(PointerSample(id: 2, x: 5, y: 5, t: 0, pointerType: .pen)),
            hovers.move(PointerSample(id: 3, x: 9, y: 9, t: 0, pointerType: .pen)),
        ]
        #expect(tracked == [true, true, false], "the third is over the limit")
        hovers.step(at: 0, into: &events)
        let moved = hovers.move(PointerSample(id: 1, x: 2, y: 1, t: 16, pointerType: .mouse))
        #expect(moved)
        hovers.step(at: 16, into: &events)
        hovers.wentDown(PointerSample(id: 1, x: 3, y: 1, t: 20, pointerType: .mouse), into: &events)
        hovers.cancel(id: nil, at: 30, into: &events)
        hovers.leave(id: 2, at: 40, into: &events)
        let seen = events.map { "\($0.gesture).\($0.phase)" }
        #expect(seen == ["hover.began", "hover.began", "hover.changed", "hover.ended", "hover.cancelled"])
        #expect(events[3].x == 3 && events[4].t == 30)
    }
}
