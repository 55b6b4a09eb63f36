import GestureControl
import GestureEngine
import Testing

/// Settings may be replaced at any time (the page's settings sheet); what is held is
/// released as it was pressed.
struct SettingsChangeTests {
    /// A tap's held left button is released as left after left-handed is switched on.
    @Test func heldTapButtonSurvivesLeftHanded() {
        var d = MapperDriver()
        d.tap(1, 100, 100, at: 0)
        d.mapper.settings.leftHanded = true
        d.advance(to: 1000)
        #expect(d.actions == [.button(.left, .down), .button(.left, .up)])
        d.tap(2, 100, 100, at: 2000)
        d.advance(to: 3000)
        #expect(d.actions.suffix(2) == [.button(.right, .down), .button(.right, .up)])
    }

    /// A mouse's held button is released as pressed after left-handed is switched on.
    @Test func heldMouseButtonSurvivesLeftHanded() {
        var d = MapperDriver()
        d.down(5, 0, 0, t: 0, .mouse, buttons: 1)
        d.mapper.settings.leftHanded = true
        d.up(5, 0, 0, t: 50, .mouse, buttons: 0)
        #expect(d.actions == [.button(.left, .down), .button(.left, .up)])
    }

    /// Switching pinch zoom off mid-pinch stops the steps and still releases Control at the end.
    @Test func pinchZoomOffMidPinch() {
        var d = MapperDriver()
        d.down(1, 100, 300, t: 0)
        d.down(2, 200, 300, t: 10)
        d.moveFingers([(1, 75, 300), (2, 225, 300)], t: 30)
        d.mapper.settings.pinchZoom = false
        d.moveFingers([(1, 25, 300), (2, 275, 300)], t: 50)
        d.up(1, 25, 300, t: 60)
        #expect(d.actions == [.key(.named(.control), .down), .wheel(dx: 0, dy: -1), .key(.named(.control), .up)])
    }

    /// Flat speed changes apply from the next move.
    @Test func speedChangeAppliesAtOnce() {
        var d = MapperDriver { $0.acceleration = .flat }
        d.down(1, 0, 0, t: 0)
        d.move(1, 10, 0, t: 10)
        d.mapper.settings.speed = 3
        d.move(1, 20, 0, t: 20)
        #expect(d.actions == [.motion(dx: 10, dy: 0), .motion(dx: 30, dy: 0)])
    }
}
