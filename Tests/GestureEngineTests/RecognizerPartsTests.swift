import Testing

@testable import GestureEngine

/// The engine's parts on their own: `TapRecognizer`, `MotionRecognizer` and `HoverTracker`, fed
/// contacts and moves by hand (the engine's tests drive them through `GestureEngine`).
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

    /// A contact's first finger down at (0, 100) at 0 ms, its phase begun.
    static func oneFingerDown() -> (MotionRecognizer, PointerRoster<TrackedPointer>) {
        var motion = MotionRecognizer(config: GestureConfig())
        var pointers = PointerRoster<TrackedPointer>(capacity: 4)
        motion.contactBegan()
        pointers.add(TrackedPointer(PointerSample(id: 1, x: 0, y: 100, t: 0, pointerType: .touch)))
        motion.begin(pointers, at: 0)
        return (motion, pointers)
    }

    /// One finger of a contact moved to `x` at `t` in steps of 10 ms from where it is, each
    /// step sampled and judged as the engine does.
    static func stroke(
        _ motion: inout MotionRecognizer, _ pointers: inout PointerRoster<TrackedPointer>, to x: Double, from t0: Double,
        steps: Int, longPress: HoldState.LongPress = .off, into events: inout [GestureEvent]
    ) {
        let x0 = pointers[0].x
        for step in 1...steps {
            let t = t0 + Double(step) * 10
            pointers[0].move(x: x0 + (x - x0) * Double(step) / Double(steps), y: 100)
            motion.sample(pointers, at: t)
            motion.step(longPress: longPress, at: t, into: &events)
        }
    }

    /// A fast stroke's drag is the contact's swipe candidate, judged a `swipe` at its up; the
    /// next contact starts without it (a tap after a swipe is no second swipe).
    @Test func theSwipeCandidateEndsWithItsContact() {
        var (motion, pointers) = Self.oneFingerDown()
        var events: [GestureEvent] = []
        Self.stroke(&motion, &pointers, to: 300, from: 0, steps: 10, into: &events)
        motion.end(pointers, at: 100, phase: .ended, into: &events)
        #expect(events.map { "\($0.gesture).\($0.phase)" }.first == "drag.began")
        #expect(events.last.map { "\($0.gesture).\($0.phase)" } == "drag.ended")
        var judged: [GestureEvent] = []
        motion.judgeSwipe(startT: 0, fingers: 1, upT: 100, into: &judged)
        #expect(judged.map(\.gesture) == [.swipe])

        motion.contactBegan()
        motion.begin(pointers, at: 300)
        motion.end(pointers, at: 340, phase: .ended, into: &events)
        judged = []
        motion.judgeSwipe(startT: 300, fingers: 1, upT: 340, into: &judged)
        #expect(judged.isEmpty, "the last contact's swipe candidate")
    }

    /// A contact has at most one `longPressDrag`, and no `drag` after it in a later phase; the
    /// next contact may drag again.
    @Test func oneLongPressDragPerContact() {
        var (motion, pointers) = Self.oneFingerDown()
        var events: [GestureEvent] = []
        Self.stroke(&motion, &pointers, to: 60, from: 600, steps: 3, longPress: .began(x: 0, y: 100), into: &events)
        motion.end(pointers, at: 630, phase: .ended, into: &events)
        #expect(events.map(\.gesture).allSatisfy { $0 == .longPressDrag } && !events.isEmpty)

        events = []
        motion.begin(pointers, at: 640)
        Self.stroke(&motion, &pointers, to: 200, from: 640, steps: 5, into: &events)
        #expect(events.isEmpty, "a drag in the contact that had a longPressDrag: \(events.map(\.gesture))")
        motion.end(pointers, at: 690, phase: .ended, into: &events)

        motion.contactBegan()
        motion.begin(pointers, at: 900)
        Self.stroke(&motion, &pointers, to: 300, from: 900, steps: 5, into: &events)
        #expect(events.first?.gesture == .drag && events.first?.phase == .began)
    }
}
