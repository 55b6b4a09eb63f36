import GestureControl
import GestureEngine
import Testing

/// Touches passed through to a native touchpad (`TouchRouting.contacts`, the `touchpad`
/// backend): contacts from `down` to `up`, nothing mapped from them; the rest as always.
@Suite struct ContactRoutingTests {
    static let owner = 7

    private func driver() -> MapperDriver {
        MapperDriver(routing: .contacts(owner: Self.owner))
    }

    private func contact(_ id: Int, _ phase: TouchContact.Phase, _ x: Double, _ y: Double, _ t: Double) -> HostAction {
        .contact(TouchContact(owner: Self.owner, id: id, phase: phase, x: x, y: y, t: t))
    }

    /// A one-finger stroke is its contact, landing, moving and lifting with the page's `t`:
    /// no pointer motion of the server's own.
    @Test func strokeIsAContact() {
        var d = driver()
        d.down(1, 100, 200, t: 0)
        d.move(1, 140, 220, t: 16)
        d.up(1, 150, 230, t: 32)
        #expect(d.take() == [contact(1, .down, 100, 200, 0), contact(1, .move, 140, 220, 16), contact(1, .up, 150, 230, 32)])
    }

    /// Taps, two-finger scrolls, pinches and three-finger swipes click, wheel, zoom and press
    /// nothing: the desktop does those from the contacts.
    @Test func gesturesMapToNothing() {
        var d = driver()
        d.tap(fingers: 2, at: 0)
        d.advance(to: 1_000)
        for i in 1...2 { d.down(i, 100 * Double(i), 300, t: 1_000) }
        for step in 1...20 {
            d.moveFingers([(1, 100, 300 - 10 * Double(step)), (2, 200, 300 - 10 * Double(step))], t: 1_000 + 16 * Double(step))
        }
        for i in 1...2 { d.up(i, 100 * Double(i), 100, t: 1_400) }
        for i in 1...3 { d.down(i, 100 * Double(i), 300, t: 2_000) }
        for step in 1...20 {
            d.moveFingers((1...3).map { ($0, 100 * Double($0) + 15 * Double(step), 300) }, t: 2_000 + 16 * Double(step))
        }
        for i in 1...3 { d.up(i, 100 * Double(i) + 300, 300, t: 2_400) }
        d.advance(to: 5_000)
        let actions = d.take()
        #expect(actions.allSatisfy { if case .contact = $0 { true } else { false } }, "\(actions)")
        #expect(actions.count == 2 * 2 + 2 + 20 * 2 + 2 + 3 + 20 * 3 + 3)
        #expect(!d.mapper.isHolding)
    }

    /// A mouse on the page is not a touch: it moves the pointer and clicks as in every mode.
    @Test func mouseIsStillMapped() {
        var d = driver()
        d.down(9, 10, 10, t: 0, .mouse, buttons: 1)
        d.move(9, 30, 10, t: 16, .mouse, buttons: 1)
        d.up(9, 30, 10, t: 32, .mouse, buttons: 0)
        let actions = d.take()
        #expect(actions.contains(.button(.left, .down)) && actions.contains(.button(.left, .up)))
        #expect(actions.motion.dx > 0)
        #expect(!actions.contains { if case .contact = $0 { true } else { false } })
    }

    /// A finger down is something held: the silence release arms; `releaseAll` lifts every
    /// finger at once (`cancel`, at the latest touch's `t`) and ignores them until their `up`.
    @Test func releaseAllLiftsEveryFinger() {
        var d = driver()
        d.down(1, 100, 200, t: 0)
        d.down(2, 200, 200, t: 5)
        d.move(2, 210, 200, t: 20)
        #expect(d.mapper.isHolding)
        _ = d.take()
        d.releaseAll()
        #expect(d.take() == [contact(1, .cancel, 100, 200, 20), contact(2, .cancel, 210, 200, 20)])
        #expect(!d.mapper.isHolding)
        d.move(1, 120, 200, t: 40)
        d.up(1, 120, 200, t: 50)
        d.up(2, 210, 200, t: 50)
        #expect(d.take().isEmpty)
        d.down(1, 50, 50, t: 100)
        #expect(d.take() == [contact(1, .down, 50, 50, 100)])
    }

    /// The page's `cancel` of one pointer cancels the contact: every finger lifts.
    @Test func cancelLiftsTheWholeContact() {
        var d = driver()
        d.down(1, 100, 200, t: 0)
        d.down(2, 200, 200, t: 5)
        _ = d.take()
        d.cancel(2, t: 30)
        #expect(d.take() == [contact(1, .cancel, 100, 200, 30), contact(2, .cancel, 200, 200, 30)])
        #expect(!d.mapper.isHolding)
    }

    /// The surface is announced when asked (the connection's `hello`) and at each `resize`;
    /// never when touches are mapped.
    @Test func surfaceIsAnnounced() {
        var d = driver()
        d.mapper.announceSurface(width: 390, height: 844, into: &d.actions)
        d.send(.resize(width: 844, height: 390))
        #expect(
            d.take() == [
                .touchSurface(owner: Self.owner, width: 390, height: 844),
                .touchSurface(owner: Self.owner, width: 844, height: 390),
            ])
        var mapped = MapperDriver()
        mapped.mapper.announceSurface(width: 390, height: 844, into: &mapped.actions)
        mapped.send(.resize(width: 844, height: 390))
        #expect(mapped.take().isEmpty)
    }

    /// Keys and the button bar work as in every mode.
    @Test func commandsAreMapped() {
        var d = driver()
        d.command(.button(.right, .click))
        d.command(.key(.named(.enter), modifiers: []))
        #expect(
            d.take() == [
                .button(.right, .down), .button(.right, .up), .key(.named(.enter), .down), .key(.named(.enter), .up),
            ])
    }
}
