import GestureControl
import GestureEngine
import Testing

/// What the mapper says it holds (`heldVersion`, `writeHeld(into:)`: the page's `held`
/// message): every button and key it holds, and `until` when its touch button goes up by
/// itself, on a virtual clock.
struct HeldSnapshotTests {
    static func lock(timeout: Double) -> (inout ControlSettings) -> Void {
        { s in
            s.acceleration = .flat
            s.dragLock = true
            s.dragLockTimeout = timeout
        }
    }

    static func held(_ d: MapperDriver) -> HeldSnapshot {
        var snapshot = HeldSnapshot()
        d.mapper.writeHeld(into: &snapshot)
        return snapshot
    }

    /// A tap holds left until tap t + multiTapInterval, then nothing: the version moves with each change.
    @Test func tapHeldUntilItsDeadline() {
        var d = MapperDriver()
        let idle = d.mapper.heldVersion
        #expect(Self.held(d) == HeldSnapshot())
        d.tap(1, 100, 100, at: 0)  // the tap at 50
        #expect(Self.held(d) == HeldSnapshot(buttons: [.left], until: 50 + GestureConfig().multiTapInterval))
        let tapped = d.mapper.heldVersion
        #expect(tapped != idle)
        d.advance(to: 349.9)
        #expect(d.mapper.heldVersion == tapped, "nothing changed before the deadline")
        d.advance(to: 350)
        #expect(Self.held(d).isEmpty && Self.held(d).until == nil)
        #expect(d.mapper.heldVersion != tapped)
    }

    /// Tap-and-drag: no `until` while the finger drags; a lift under drag lock sets it to lift t + the configured timeout, and it ends there.
    @Test func dragLockUntilItsTimeout() {
        var d = MapperDriver(settings: Self.lock(timeout: 2_500))
        d.tap(1, 100, 100, at: 0)
        d.down(2, 100, 100, t: 200)
        #expect(Self.held(d) == HeldSnapshot(buttons: [.left]))
        d.stroke(2, from: (100, 100), to: (100, 200), start: 200, duration: 100, steps: 10)
        #expect(Self.held(d) == HeldSnapshot(buttons: [.left]))
        d.up(2, 100, 200, t: 310)
        #expect(Self.held(d) == HeldSnapshot(buttons: [.left], until: 2_810))
        d.advance(to: 2_809)
        #expect(Self.held(d).holds(.left))
        d.advance(to: 2_810)
        #expect(Self.held(d) == HeldSnapshot())
    }

    /// Moves that change nothing held leave the version alone (the session's hot path looks at it only).
    @Test func motionLeavesTheVersion() {
        var d = MapperDriver()
        d.down(1, 100, 100, t: 0)
        let version = d.mapper.heldVersion
        d.stroke(1, from: (100, 100), to: (300, 120), start: 0, duration: 200, steps: 12)
        #expect(d.mapper.heldVersion == version)
    }

    /// The bar's button: held without `until` from `down` to `up`; a click moves the version but leaves the snapshot empty.
    @Test func buttonBar() {
        var d = MapperDriver()
        d.command(.button(.right, .down))
        #expect(Self.held(d) == HeldSnapshot(buttons: [.right]))
        d.command(.button(.right, .up))
        #expect(Self.held(d) == HeldSnapshot())
        let version = d.mapper.heldVersion
        d.command(.button(.middle, .click))
        #expect(d.mapper.heldVersion != version && Self.held(d) == HeldSnapshot())
    }

    /// A tap while the bar holds left: left stays listed but has no `until` (the bar still holds it at the tap's deadline).
    @Test func noUntilWhenSomethingElseHoldsIt() {
        var d = MapperDriver()
        d.command(.button(.left, .down))
        d.tap(1, 100, 100, at: 0)
        #expect(Self.held(d) == HeldSnapshot(buttons: [.left]))
        d.advance(to: 400)
        #expect(Self.held(d) == HeldSnapshot(buttons: [.left]))
    }

    /// A pinch's Control is a held key; a mouse's buttons are listed in left, right, middle order.
    @Test func keysAndDeviceButtons() {
        var d = MapperDriver()
        d.down(1, 100, 300, t: 0)
        d.down(2, 200, 300, t: 0)
        for i in 1...10 {
            d.move(1, 100 - 5 * Double(i), 300, t: 10 + 10 * Double(i))
            d.move(2, 200 + 5 * Double(i), 300, t: 10 + 10 * Double(i))
        }
        #expect(Self.held(d) == HeldSnapshot(keys: [.named(.control)]))
        d.up(1, 50, 300, t: 130)
        d.up(2, 250, 300, t: 130)
        #expect(Self.held(d).isEmpty)
        d.down(5, 10, 10, t: 1_000, .mouse, buttons: 4)
        d.move(5, 12, 10, t: 1_010, .mouse, buttons: 5)
        let mouse = Self.held(d)
        #expect(mouse == HeldSnapshot(buttons: [.middle, .left]) && mouse.holds(.left) && !mouse.holds(.right))
    }

    /// `releaseAll` (silence, close, control off) leaves nothing listed and no `until`.
    @Test func releaseAllEmpties() {
        var d = MapperDriver(settings: Self.lock(timeout: 1_000))
        d.command(.button(.middle, .down))
        d.tap(1, 100, 100, at: 0)
        #expect(Self.held(d) == HeldSnapshot(buttons: [.left, .middle], until: 350))
        d.releaseAll()
        #expect(Self.held(d) == HeldSnapshot())
    }

    /// The `touchpad` backend: fingers on the native touchpad are not listed (the desktop holds its buttons); the bar's are.
    @Test func contactsAreNotHeld() {
        var d = MapperDriver(routing: .contacts(owner: 3))
        d.tap(1, 100, 100, at: 0)
        d.down(1, 100, 100, t: 100)
        #expect(d.mapper.isHolding && Self.held(d).isEmpty)
        d.command(.button(.left, .down))
        #expect(Self.held(d) == HeldSnapshot(buttons: [.left]))
    }
}
