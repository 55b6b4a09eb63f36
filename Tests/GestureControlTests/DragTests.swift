import GestureControl
import GestureEngine
import Testing

/// Dragging with a button held: tap-and-drag, long-press drag, drag lock (CONTROL.md "tap,
/// then within multiTapInterval touch and move", "long press, then move").
struct DragTests {
    static func flat(_ s: inout ControlSettings) {
        s.acceleration = .flat
    }

    static func flatLock(_ s: inout ControlSettings) {
        s.acceleration = .flat
        s.dragLock = true
    }

    /// Tap, then touch and move within multiTapInterval: the left button stays down during the move and goes up at the lift.
    @Test func tapAndDragHoldsUntilLift() {
        var d = MapperDriver(settings: Self.flat)
        d.tap(1, 100, 100, at: 0)  // tap at 50, deadline 350
        d.down(2, 100, 100, t: 200)
        #expect(d.mapper.nextDeadline == nil)
        d.stroke(2, from: (100, 100), to: (200, 150), start: 200, duration: 300, steps: 20)
        let during = d.take()
        #expect(during.first == .button(.left, .down))
        #expect(during.presses == [.button(.left, .down)])  // still held at 500, past the old deadline
        #expect(during.motion == (100, 50))
        d.advance(to: 600)
        #expect(d.take().isEmpty)
        d.up(2, 200, 150, t: 650)
        #expect(d.take() == [.button(.left, .up)])
        #expect(!d.mapper.isHolding)
    }

    /// A tap-and-drag that held still and lifted late (no tap) releases at the lift: one click in all.
    @Test func tapThenStillTouchReleasesAtLift() {
        var d = MapperDriver()
        d.tap(1, 100, 100, at: 0)
        d.down(2, 100, 100, t: 200)
        d.advance(to: 600)
        #expect(d.take() == [.button(.left, .down)])
        d.up(2, 100, 100, t: 600)
        #expect(d.take() == [.button(.left, .up)])
    }

    /// A second finger landing during a tap-and-drag releases the button first.
    @Test func secondFingerEndsTapAndDrag() {
        var d = MapperDriver()
        d.tap(1, 100, 100, at: 0)
        d.down(2, 100, 100, t: 200)
        d.move(2, 130, 100, t: 220)
        _ = d.take()
        d.down(3, 200, 100, t: 240)
        #expect(d.take() == [.button(.left, .up)])
        d.up(2, 130, 100, t: 300)
        d.up(3, 200, 100, t: 310)
        #expect(d.take().presses.isEmpty)
    }

    /// Long press then move: left down at longPressDrag began, motion with it held, up at the lift.
    @Test func longPressDrag() {
        var d = MapperDriver(settings: Self.flat)
        d.down(1, 200, 300, t: 0)
        d.advance(to: 520)
        d.move(1, 200, 305, t: 540)
        d.move(1, 200, 310, t: 560)
        #expect(d.take() == [.motion(dx: 0, dy: 5), .motion(dx: 0, dy: 5)])
        d.move(1, 200, 311, t: 580)  // beyond slop from the long-press location: longPressDrag began
        #expect(d.take() == [.motion(dx: 0, dy: 1), .button(.left, .down)])  // the step's event follows its move
        d.stroke(1, from: (200, 311), to: (260, 400), start: 580, duration: 100, steps: 5)
        #expect(d.take().presses.isEmpty)
        d.up(1, 260, 400, t: 700)
        #expect(d.take() == [.button(.left, .up)])
    }

    /// A long-press drag presses the right button when left-handed.
    @Test func longPressDragLeftHanded() {
        var d = MapperDriver { $0.leftHanded = true }
        d.down(1, 200, 300, t: 0)
        d.advance(to: 520)
        d.stroke(1, from: (200, 300), to: (200, 400), start: 520, duration: 100, steps: 5)
        d.up(1, 200, 400, t: 700)
        #expect(d.actions.presses == [.button(.right, .down), .button(.right, .up)])
    }

    /// A second finger ends a long-press drag: the button goes up at once.
    @Test func secondFingerEndsLongPressDrag() {
        var d = MapperDriver()
        d.down(1, 200, 300, t: 0)
        d.advance(to: 520)
        d.stroke(1, from: (200, 300), to: (200, 350), start: 520, duration: 50, steps: 5)
        _ = d.take()
        d.down(2, 100, 300, t: 600)
        #expect(d.take() == [.button(.left, .up)])
    }

    /// Drag lock keeps the button down after a dragged lift, until dragLockTimeout passes with no touch.
    @Test func dragLockEndsByTimeout() {
        var d = MapperDriver(settings: Self.flatLock)
        d.tap(1, 100, 100, at: 0)
        d.down(2, 100, 100, t: 200)
        d.stroke(2, from: (100, 100), to: (100, 200), start: 200, duration: 100, steps: 10)
        d.up(2, 100, 200, t: 310)
        #expect(d.take().presses == [.button(.left, .down)])
        #expect(d.mapper.isHolding && d.mapper.nextDeadline == 1310)
        d.advance(to: 1309.9)
        #expect(d.take().isEmpty)
        d.advance(to: 1310)
        #expect(d.take() == [.button(.left, .up)])
    }

    /// Drag lock: a new touch that moves continues the drag with the button still down; its lift locks again.
    @Test func dragLockContinues() {
        var d = MapperDriver(settings: Self.flatLock)
        d.down(1, 200, 300, t: 0)
        d.advance(to: 520)
        d.stroke(1, from: (200, 300), to: (200, 400), start: 520, duration: 100, steps: 5)
        d.up(1, 200, 400, t: 640)
        #expect(d.take().presses == [.button(.left, .down)])
        d.down(2, 50, 50, t: 1000)
        #expect(d.mapper.nextDeadline == nil)
        d.stroke(2, from: (50, 50), to: (150, 50), start: 1000, duration: 100, steps: 10)
        let moved = d.take()
        #expect(moved.presses.isEmpty && moved.motion == (100, 0))
        d.up(2, 150, 50, t: 1110)
        #expect(d.take().isEmpty)
        #expect(d.mapper.nextDeadline == 2110)
        d.advance(to: 2110)
        #expect(d.take() == [.button(.left, .up)])
    }

    /// Drag lock ends with a tap, which releases the button and does not click.
    @Test func dragLockEndsByTapWithoutClick() {
        var d = MapperDriver(settings: Self.flatLock)
        d.tap(1, 100, 100, at: 0)
        d.down(2, 100, 100, t: 200)
        d.stroke(2, from: (100, 100), to: (100, 200), start: 200, duration: 100, steps: 10)
        d.up(2, 100, 200, t: 310)
        _ = d.take()
        d.tap(3, 300, 300, at: 800)
        #expect(d.events.contains { $0.gesture == .tap && $0.t == 850 })
        #expect(d.take() == [.button(.left, .up)])
        d.advance(to: 5000)
        #expect(d.take().isEmpty && !d.mapper.isHolding)
    }

    /// Without drag lock, a dragged lift releases at once; drag lock does not apply to a lift that did not drag.
    @Test func noLockWithoutDragOrSetting() {
        var d = MapperDriver()
        d.tap(1, 100, 100, at: 0)
        d.down(2, 100, 100, t: 200)
        d.stroke(2, from: (100, 100), to: (100, 200), start: 200, duration: 100, steps: 10)
        d.up(2, 100, 200, t: 310)
        #expect(d.actions.presses == [.button(.left, .down), .button(.left, .up)])
        var e = MapperDriver(settings: Self.flatLock)
        e.tap(1, 100, 100, at: 0)
        e.down(2, 100, 100, t: 200)
        e.advance(to: 600)
        e.up(2, 104, 100, t: 600)  // within slop: not dragged
        #expect(e.actions.presses == [.button(.left, .down), .button(.left, .up)])
        #expect(e.mapper.nextDeadline == nil)
    }

    /// A cancel during a drag releases the held button at once and ignores the finger until its up.
    @Test func cancelReleasesHeldDrag() {
        var d = MapperDriver(settings: Self.flat)
        d.tap(1, 100, 100, at: 0)
        d.down(2, 100, 100, t: 200)
        d.stroke(2, from: (100, 100), to: (100, 150), start: 200, duration: 50, steps: 5)
        _ = d.take()
        d.cancel(nil, t: 260)
        #expect(d.take() == [.button(.left, .up)])
        d.move(2, 100, 200, t: 280)
        d.up(2, 100, 200, t: 300)
        #expect(d.take().isEmpty)
        #expect(!d.mapper.isHolding && d.mapper.nextDeadline == nil)
        d.down(3, 100, 100, t: 400)
        d.move(3, 110, 100, t: 410)
        #expect(d.take() == [.motion(dx: 10, dy: 0)])
    }

    /// A cancel of one finger's id cancels a long-press drag under drag lock too: no lock, released.
    @Test func cancelOfOneIdReleasesWithoutLock() {
        var d = MapperDriver(settings: Self.flatLock)
        d.down(1, 200, 300, t: 0)
        d.advance(to: 520)
        d.stroke(1, from: (200, 300), to: (200, 400), start: 520, duration: 100, steps: 5)
        d.cancel(1, t: 650)
        #expect(d.actions.presses == [.button(.left, .down), .button(.left, .up)])
        #expect(d.mapper.nextDeadline == nil)
    }

    /// A long-press drag whose last step is flushed by the lift (one batch frame) still presses before it releases.
    @Test func stepFlushedByTheLift() {
        var d = MapperDriver(settings: Self.flat)
        d.down(1, 200, 300, t: 0)
        d.advance(to: 520)
        d.frame([
            .move(PointerSample(id: 1, x: 200, y: 320, t: 540)),
            .up(PointerSample(id: 1, x: 200, y: 320, t: 560)),
        ])
        #expect(d.actions == [.motion(dx: 0, dy: 20), .button(.left, .down), .button(.left, .up)])
    }
}
