import GestureControl
import GestureEngine
import Testing

/// A mouse or pen on the page moves the pointer; its buttons are the computer's buttons
/// (CONTROL.md "a mouse or pen on the page").
struct DeviceTests {
    static func flat(_ s: inout ControlSettings) {
        s.acceleration = .flat
    }

    /// A hovering mouse moves the pointer by its deltas from its second move on; leave resets the reference.
    @Test func hoverMoves() {
        var d = MapperDriver(settings: Self.flat)
        d.move(5, 100, 100, t: 0, .mouse)
        #expect(d.take().isEmpty)
        d.move(5, 110, 95, t: 10, .mouse)
        d.move(5, 112, 95, t: 20, .mouse)
        #expect(d.take() == [.motion(dx: 10, dy: -5), .motion(dx: 2, dy: 0)])
        d.send(.leave(id: 5, t: 30))
        d.move(5, 300, 300, t: 40, .mouse)
        #expect(d.take().isEmpty)
        d.move(5, 301, 300, t: 50, .mouse)
        #expect(d.take() == [.motion(dx: 1, dy: 0)])
    }

    /// A pen moves the pointer the same way, and its touch presses left.
    @Test func penMovesAndPresses() {
        var d = MapperDriver(settings: Self.flat)
        d.move(9, 50, 50, t: 0, .pen)
        d.move(9, 60, 50, t: 10, .pen)
        d.down(9, 60, 50, t: 20, .pen)
        d.move(9, 80, 50, t: 30, .pen)
        d.up(9, 80, 50, t: 40, .pen)
        #expect(
            d.actions == [.motion(dx: 10, dy: 0), .button(.left, .down), .motion(dx: 20, dy: 0), .button(.left, .up)])
    }

    /// Mouse buttons follow the buttons bitmask: 1 left, 2 right, 4 middle; up releases every button the pointer holds.
    @Test func buttonsBitmask() {
        var d = MapperDriver(settings: Self.flat)
        d.move(5, 100, 100, t: 0, .mouse, buttons: 0)
        d.down(5, 100, 100, t: 10, .mouse, buttons: 2)
        #expect(d.take() == [.button(.right, .down)])
        d.move(5, 100, 100, t: 20, .mouse, buttons: 3)
        #expect(d.take() == [.button(.left, .down)])
        d.move(5, 100, 100, t: 30, .mouse, buttons: 5)
        #expect(d.take() == [.button(.right, .up), .button(.middle, .down)])
        d.move(5, 101, 100, t: 40, .mouse)  // no bitmask: buttons unchanged
        #expect(d.take() == [.motion(dx: 1, dy: 0)])
        d.up(5, 101, 100, t: 50, .mouse, buttons: 0)
        #expect(d.take() == [.button(.middle, .up), .button(.left, .up)])  // last pressed first
        #expect(!d.mapper.isHolding)
    }

    /// A mouse down without a bitmask (or 0) presses the primary button; left-handed swaps left and right.
    @Test func primaryButtonAndLeftHanded() {
        var d = MapperDriver()
        d.down(5, 100, 100, t: 0, .mouse)
        d.up(5, 100, 100, t: 50, .mouse)
        #expect(d.take() == [.button(.left, .down), .button(.left, .up)])
        var l = MapperDriver { $0.leftHanded = true }
        l.down(5, 100, 100, t: 0, .mouse, buttons: 1)
        l.move(5, 100, 100, t: 10, .mouse, buttons: 3)
        l.up(5, 100, 100, t: 50, .mouse, buttons: 0)
        #expect(l.take() == [.button(.right, .down), .button(.left, .down), .button(.left, .up), .button(.right, .up)])
    }

    /// A mouse click is no tap: one click, no tap click held after it; a mouse long press and drag hold nothing else.
    @Test func noTapClickForMouse() {
        var d = MapperDriver(settings: Self.flat)
        d.down(5, 100, 100, t: 0, .mouse, buttons: 1)
        d.up(5, 100, 100, t: 50, .mouse, buttons: 0)
        #expect(d.events.contains { $0.gesture == .tap })
        d.advance(to: 1000)
        #expect(d.take() == [.button(.left, .down), .button(.left, .up)])
        d.down(5, 100, 100, t: 2000, .mouse, buttons: 1)
        d.advance(to: 2600)
        d.stroke(5, from: (100, 100), to: (100, 200), start: 2600, duration: 100, steps: 5, .mouse, buttons: 1)
        d.up(5, 100, 200, t: 2800, .mouse, buttons: 0)
        #expect(d.events.contains { $0.gesture == .longPressDrag })
        #expect(d.take().presses == [.button(.left, .down), .button(.left, .up)])
    }

    /// Hover moves with buttons pressed (no down seen) press nothing.
    @Test func hoverButtonsPressNothing() {
        var d = MapperDriver()
        d.move(5, 100, 100, t: 0, .mouse, buttons: 1)
        d.move(5, 101, 100, t: 10, .mouse, buttons: 1)
        #expect(d.actions.presses.isEmpty)
    }

    /// A mouse and a finger at once: the finger's tap still clicks after the mouse's contact is over.
    @Test func touchAfterMouse() {
        var d = MapperDriver()
        d.down(5, 100, 100, t: 0, .mouse)
        d.up(5, 100, 100, t: 30, .mouse)
        d.tap(1, 200, 200, at: 1000)
        d.advance(to: 2000)
        #expect(d.actions.presses.count == 4)
        #expect(d.actions.pressViolations.isEmpty)
    }

    /// A cancel of a held mouse releases its buttons; its bitmask is ignored until its up.
    @Test func cancelReleasesMouseButtons() {
        var d = MapperDriver()
        d.down(5, 100, 100, t: 0, .mouse, buttons: 1)
        d.cancel(5, t: 10)
        #expect(d.take() == [.button(.left, .down), .button(.left, .up)])
        d.move(5, 100, 100, t: 20, .mouse, buttons: 1)
        d.up(5, 100, 100, t: 30, .mouse, buttons: 0)
        #expect(d.take().presses.isEmpty)
        d.down(5, 100, 100, t: 40, .mouse, buttons: 1)
        #expect(d.take() == [.button(.left, .down)])
    }
}
