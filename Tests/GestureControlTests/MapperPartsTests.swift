import GestureEngine
import Testing

@testable import GestureControl

/// The mapper's parts on their own, fed events and inputs by hand (`ControlMapper`'s tests
/// drive them through the mapper): `WheelScroll`, `TapClaimHold`, `DeviceInput`.
struct MapperPartsTests {
    static func scroll(_ phase: GesturePhase, t: Double, ddy: Double, vy: Double = 0) -> GestureEvent {
        GestureEvent(
            gesture: .scroll, phase: phase, t: t, x: 0, y: 0, pointers: 2,
            detail: .scroll(ScrollFields(dx: 0, dy: ddy, ddx: 0, ddy: ddy, vx: 0, vy: vy)))
    }

    /// Travel becomes detents (24 px each by default, natural: fingers down scroll up); an end
    /// by a lift that is fast enough coasts instead of stopping, and the coast's stop sends the
    /// scroll's one `wheelStop`.
    @Test func aFastLiftCoastsThenStops() {
        var wheel = WheelScroll()
        var settings = ControlSettings()
        settings.kineticScrolling = true
        var actions: [HostAction] = []
        wheel.scroll(Self.scroll(.began, t: 0, ddy: 48), lifted: false, settings: settings, into: &actions)
        #expect(actions == [.wheel(dx: 0, dy: -2)], "natural scrolling, the default, negates")
        wheel.scroll(Self.scroll(.ended, t: 50, ddy: 0, vy: 3000), lifted: true, settings: settings, into: &actions)
        #expect(wheel.isCoasting && wheel.nextDeadline != nil && actions.count == 1, "coasting, no wheelStop yet")
        wheel.stopCoast(into: &actions)
        #expect(!wheel.isCoasting && actions.last == .wheelStop && actions.count == 2)
        wheel.stopCoast(into: &actions)
        #expect(actions.count == 2, "stopped once")
    }

    /// An end that is not a lift (a finger added), or a lift with kinetic scrolling off, stops
    /// at once.
    @Test func anEndThatIsNoFastLiftStops() {
        var wheel = WheelScroll()
        var actions: [HostAction] = []
        wheel.scroll(Self.scroll(.began, t: 0, ddy: 24), lifted: false, settings: ControlSettings(), into: &actions)
        var off = ControlSettings()
        off.kineticScrolling = false
        wheel.scroll(Self.scroll(.ended, t: 50, ddy: 0, vy: 3000), lifted: true, settings: off, into: &actions)
        #expect(actions == [.wheel(dx: 0, dy: -1), .wheelStop] && !wheel.isCoasting)
    }

    /// A claim that may take a two-finger double tap holds the first tap's click; a contact
    /// that ends without tapping on lets it go, late, through the record of what is held.
    @Test func heldClicksGoWhenTheSequenceEnds() {
        var hold = TapClaimHold(gestures: GestureConfig())
        let claims = GestureClaims([GestureClaim(gestures: [.doubleTap], pointers: 2)])
        var held = HeldInputs()
        var actions: [HostAction] = []
        let tap = GestureEvent(gesture: .tap, phase: .ended, t: 50, x: 0, y: 0, pointers: 2, detail: .count(1))
        let taken = hold.claimTap(tap, button: .right, claims: claims, held: &held, into: &actions)
        #expect(taken && hold.isHolding && hold.deadline == 350 && actions.isEmpty)
        hold.contactStarted(at: 200)
        #expect(hold.deadline == nil, "it waits for the contact's end")
        hold.contactEnded(at: 260, claims: claims, held: &held, into: &actions)
        #expect(actions == [.button(.right, .down), .button(.right, .up)] && !hold.isHolding && held.isEmpty)
    }

    /// A mouse's buttons follow `buttons`: down presses the primary, a move with left + right
    /// presses right too, the up releases both; a cancel ignores its buttons until its up.
    @Test func aMouseHoldsWhatItsButtonsSay() {
        var devices = DeviceInput()
        var held = HeldInputs()
        var actions: [HostAction] = []
        let settings = ControlSettings()
        let down = devices.down(
            PointerSample(id: 7, x: 0, y: 0, t: 0, pointerType: .mouse), settings: settings, held: &held, into: &actions)
        devices.move(
            PointerSample(id: 7, x: 0, y: 0, t: 10, pointerType: .mouse, buttons: 3), settings: settings, held: &held,
            into: &actions)
        #expect(down && devices.anyContactDown && devices.knows(7))
        #expect(actions == [.button(.left, .down), .button(.right, .down)])
        devices.up(PointerSample(id: 7, x: 0, y: 0, t: 20, pointerType: .mouse), held: &held, into: &actions)
        #expect(actions.suffix(2) == [.button(.right, .up), .button(.left, .up)] && held.isEmpty)
        _ = devices.down(
            PointerSample(id: 7, x: 0, y: 0, t: 30, pointerType: .mouse), settings: settings, held: &held, into: &actions)
        let cancels = devices.cancelsContact(id: 7)
        #expect(cancels)
        held.release(ownedBy: .allDevices, into: &actions)
        devices.contactCancelled(all: false)
        let again = devices.cancelsContact(id: 7)
        #expect(!devices.anyContactDown && !again, "ignored until its up")
    }
}
