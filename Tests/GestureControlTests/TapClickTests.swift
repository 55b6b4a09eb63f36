import GestureControl
import GestureEngine
import Testing

/// Taps click (CONTROL.md "tap with 1 / 2 / 3 fingers").
struct TapClickTests {
    /// A one-finger tap presses left at once and releases exactly at tap t + multiTapInterval, not 0.1 ms before.
    @Test func singleTapReleasesAtTheDeadline() {
        var d = MapperDriver()
        d.tap(1, 100, 100, at: 1000, duration: 60)  // tap at 1060
        #expect(d.take() == [.button(.left, .down)])
        #expect(d.mapper.nextDeadline == 1360)
        #expect(d.mapper.isHolding)
        d.advance(to: 1359.9)
        #expect(d.take().isEmpty)
        d.advance(to: 1360)
        #expect(d.take() == [.button(.left, .up)])
        #expect(d.mapper.nextDeadline == nil && !d.mapper.isHolding)
    }

    /// An input at or after the deadline fires the held click's release first.
    @Test func laterInputFiresTheDeadline() {
        var d = MapperDriver()
        d.tap(1, 100, 100, at: 0)
        d.down(2, 100, 100, t: 350)  // deadline 350: released before this down
        #expect(d.take() == [.button(.left, .down), .button(.left, .up)])
        d.move(2, 140, 100, t: 400)
        #expect(d.take().presses.isEmpty)
    }

    /// Taps with 1 / 2 / 3 fingers click left / right / middle.
    @Test(arguments: [(1, HostButton.left), (2, .right), (3, .middle)])
    func fingersChooseTheButton(fingers: Int, button: HostButton) {
        var d = MapperDriver()
        d.tap(fingers: fingers, at: 0)
        d.advance(to: 1000)
        #expect(d.actions == [.button(button, .down), .button(button, .up)])
    }

    /// Left-handed mirrors the tap buttons: 1 finger right, 2 left, 3 middle.
    @Test(arguments: [(1, HostButton.right), (2, .left), (3, .middle)])
    func leftHandedMirrors(fingers: Int, button: HostButton) {
        var d = MapperDriver { $0.leftHanded = true }
        d.tap(fingers: fingers, at: 0)
        d.advance(to: 1000)
        #expect(d.actions == [.button(button, .down), .button(button, .up)])
    }

    /// Two- and three-finger taps click down and up at once, with no deadline.
    @Test func multiFingerTapClicksAtOnce() {
        var d = MapperDriver()
        d.tap(fingers: 2, at: 0)
        #expect(d.take() == [.button(.right, .down), .button(.right, .up)])
        #expect(d.mapper.nextDeadline == nil)
    }

    /// With tap-and-drag off, a one-finger tap is a click at once.
    @Test func tapAndDragOffClicksAtOnce() {
        var d = MapperDriver { $0.tapAndDrag = false }
        d.tap(1, 100, 100, at: 0)
        #expect(d.take() == [.button(.left, .down), .button(.left, .up)])
        #expect(d.mapper.nextDeadline == nil)
    }

    /// With tap-to-click off, taps click nothing (motion still works).
    @Test func tapToClickOff() {
        var d = MapperDriver { $0.tapToClick = false }
        d.tap(1, 100, 100, at: 0)
        d.tap(fingers: 2, at: 500)
        d.tap(fingers: 3, at: 1000)
        d.advance(to: 3000)
        #expect(d.actions.presses.isEmpty)
        #expect(!d.mapper.isHolding)
    }

    /// A double tap is two full clicks: down up down up; doubleTap and singleTapConfirmed add nothing.
    @Test func doubleTapIsTwoClicks() {
        var d = MapperDriver()
        d.tap(1, 200, 400, at: 1000)
        d.tap(2, 203, 402, at: 1200)
        d.advance(to: 5000)
        #expect(d.events.contains { $0.gesture == .doubleTap })
        #expect(d.actions == [.button(.left, .down), .button(.left, .up), .button(.left, .down), .button(.left, .up)])
    }

    /// The second click of a double tap is held until its own deadline (a third touch could drag).
    @Test func secondClickOfDoubleTapIsHeldToItsDeadline() {
        var d = MapperDriver()
        d.tap(1, 200, 400, at: 0)  // tap at 50
        d.tap(2, 200, 400, at: 200)  // tap at 250
        #expect(d.take() == [.button(.left, .down), .button(.left, .up), .button(.left, .down)])
        #expect(d.mapper.nextDeadline == 550)
        d.advance(to: 550)
        #expect(d.take() == [.button(.left, .up)])
    }

    /// A triple tap is three clicks.
    @Test func tripleTap() {
        var d = MapperDriver()
        d.tap(1, 200, 400, at: 0)
        d.tap(2, 200, 400, at: 200)
        d.tap(3, 200, 400, at: 400)
        d.advance(to: 2000)
        #expect(d.actions.filter { $0 == .button(.left, .down) }.count == 3)
        #expect(d.actions.pressViolations.isEmpty && d.actions.stillDown.isEmpty)
    }

    /// A bounce (a touch sooner than multiTapMinInterval after the tap) ends the held click at its lift, no second click.
    @Test func bounceEndsTheClick() {
        var d = MapperDriver()
        d.tap(1, 100, 100, at: 0)  // up 50
        d.tap(2, 100, 100, at: 70, duration: 20)  // bounce, up 90
        #expect(d.take() == [.button(.left, .down), .button(.left, .up)])
        #expect(d.mapper.nextDeadline == nil)
    }

    /// A two-finger tap during the held click releases the left button first, then right-clicks.
    @Test func twoFingerTapDuringHeldClick() {
        var d = MapperDriver()
        d.tap(1, 100, 100, at: 0)
        d.tap(fingers: 2, at: 150)
        #expect(d.actions == [.button(.left, .down), .button(.left, .up), .button(.right, .down), .button(.right, .up)])
    }

    /// A long touch is no tap: no click.
    @Test func longTouchIsNoClick() {
        var d = MapperDriver()
        d.down(1, 100, 100, t: 0)
        d.advance(to: 700)
        d.up(1, 100, 100, t: 700)
        d.advance(to: 2000)
        #expect(d.actions.isEmpty)
    }

    /// Custom tap buttons: the settings' tapButtons are used.
    @Test func customTapButtons() {
        var d = MapperDriver { $0.tapButtons = [.middle, .left] }
        d.tap(fingers: 2, at: 0)
        d.tap(fingers: 3, at: 500)
        #expect(d.actions == [.button(.left, .down), .button(.left, .up)])
    }
}
