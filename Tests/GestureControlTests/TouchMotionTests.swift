import GestureControl
import GestureEngine
import Testing

/// One finger moving moves the pointer (CONTROL.md "one finger moving").
struct TouchMotionTests {
    static func flat(_ s: inout ControlSettings) {
        s.acceleration = .flat
        s.speed = 1
    }

    /// With flat acceleration and speed 1, a 1,000 px stroke of 0.3 px steps lands within 1 px.
    @Test func flatStrokeOfTinyStepsLandsExactly() {
        var d = MapperDriver(settings: Self.flat)
        d.down(1, 100, 100, t: 0)
        var x = 100.0
        var t = 0.0
        while x < 1100 - 1e-9 {
            x = min(x + 0.3, 1100)
            t += 1
            d.move(1, x, 100 + (x - 100) * 0.5, t: t)
        }
        let m = d.actions.motion
        #expect(abs(m.dx - 1000) <= 1)
        #expect(abs(m.dy - 500) <= 1)
        #expect(d.actions.allSatisfy { if case .motion(let dx, let dy) = $0 { dx != 0 || dy != 0 } else { true } })
    }

    /// The pointer moves from the first move on, before the drag slop is passed.
    @Test func movesFromTheFirstMove() {
        var d = MapperDriver(settings: Self.flat)
        d.down(1, 100, 100, t: 0)
        d.move(1, 103, 98, t: 16)
        #expect(d.take() == [.motion(dx: 3, dy: -2)])
        #expect(d.events.allSatisfy { $0.gesture != .drag })
    }

    /// Speed scales flat motion: speed 2 doubles it.
    @Test func speedFactor() {
        var d = MapperDriver { s in
            s.acceleration = .flat
            s.speed = 2
        }
        d.down(1, 100, 100, t: 0)
        d.stroke(1, from: (100, 100), to: (150, 100), start: 0, duration: 100, steps: 10)
        #expect(d.actions.motion.dx == 100)
    }

    /// Adaptive: the same 300 px travelled fast goes farther than travelled slowly, and slowly
    /// it goes less than 1:1 (the curve's minimum gain 0.8).
    @Test func adaptiveFasterGoesFurther() {
        var slow = MapperDriver()
        slow.down(1, 50, 100, t: 0)
        slow.stroke(1, from: (50, 100), to: (350, 100), start: 0, duration: 6000, steps: 300)
        var fast = MapperDriver()
        fast.down(1, 50, 100, t: 0)
        fast.stroke(1, from: (50, 100), to: (350, 100), start: 0, duration: 150, steps: 10)
        let s = slow.actions.motion.dx
        let f = fast.actions.motion.dx
        #expect(abs(s - 240) <= 1)  // 0.05 px/ms: below the threshold, gain 0.8
        #expect(f > 500)  // 2 px/ms: gain 0.8 + 1.6 × 1.9 = 3.84, capped at 3.5
        #expect(abs(f - 1050) <= 1)
    }

    /// Moves with the same t (one touch frame) reuse the last speed and still move.
    @Test func zeroDtMovesStillMove() {
        var d = MapperDriver()
        d.down(1, 100, 100, t: 0)
        d.move(1, 110, 100, t: 10)  // 1 px/ms: gain 0.8 + 1.6 × 0.9 = 2.24
        #expect(d.take().motion.dx == 22)
        d.move(1, 120, 100, t: 10)
        d.move(1, 130, 100, t: 10)
        #expect(d.take().motion.dx == 45)  // 2 × 22.4 + the 0.4 carried
    }

    /// No pointer motion while two fingers are down; no jump when the second lands or lifts.
    @Test func twoFingersDoNotMoveThePointer() {
        var d = MapperDriver(settings: Self.flat)
        d.down(1, 100, 100, t: 0)
        d.move(1, 104, 100, t: 10)
        #expect(d.take().motion.dx == 4)
        d.down(2, 300, 100, t: 20)
        for i in 1...10 {
            d.move(1, 104, 100 + 5 * Double(i), t: 20 + 10 * Double(i))
            d.move(2, 300, 100 + 5 * Double(i), t: 20 + 10 * Double(i))
        }
        #expect(d.take().filter { if case .motion = $0 { true } else { false } }.isEmpty)
        d.up(2, 300, 150, t: 200)
        #expect(d.take().motion == (0, 0))
        d.move(1, 107, 152, t: 210)  // measured from where finger 1 was when finger 2 lifted
        #expect(d.take() == [.motion(dx: 3, dy: 2)])
    }

    /// When the first finger lifts, the remaining one moves the pointer from its own position.
    @Test func firstFingerLiftsSecondContinues() {
        var d = MapperDriver(settings: Self.flat)
        d.down(1, 100, 100, t: 0)
        d.down(2, 300, 500, t: 5)
        d.up(1, 100, 100, t: 30)
        d.move(2, 305, 500, t: 40)
        #expect(d.take().motion == (5, 0))
    }

    /// A move of a finger that is not down moves nothing.
    @Test func moveOfUnknownFingerIsIgnored() {
        var d = MapperDriver(settings: Self.flat)
        d.move(7, 100, 100, t: 0)
        d.move(7, 200, 100, t: 10)
        #expect(d.actions.isEmpty)
    }
}
