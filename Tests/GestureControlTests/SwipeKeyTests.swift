import GestureControl
import GestureEngine
import Testing

/// Three-finger swipes press key combinations (CONTROL.md "three-finger swipe").
struct SwipeKeyTests {
    /// Fingers swiping by (dx, dy) per 12 ms frame for 10 frames from `t0`, lifted one by one.
    static func swipe(_ d: inout MapperDriver, dx: Double, dy: Double, fingers: Int = 3, at t0: Double = 0) {
        for i in 1...fingers { d.down(i, 100 + 50 * Double(i), 400, t: t0 + Double(i - 1) * 5) }
        for step in 1...10 {
            let s = Double(step)
            d.moveFingers((1...fingers).map { ($0, 100 + 50 * Double($0) + dx * s, 400 + dy * s) }, t: t0 + 10 + 12 * s)
        }
        for i in 1...fingers { d.up(i, 100 + 50 * Double(i) + dx * 10, 400 + dy * 10, t: t0 + 135 + 3 * Double(i)) }
    }

    /// The default keys: left Alt+ArrowRight, right Alt+ArrowLeft, up Meta, down Meta+d.
    @Test(arguments: [(-20.0, 0.0, "Alt+ArrowRight"), (20, 0, "Alt+ArrowLeft"), (0, -20, "Meta"), (0, 20, "Meta+d")])
    func defaultSwipeKeys(dx: Double, dy: Double, keys: String) {
        var d = MapperDriver()
        Self.swipe(&d, dx: dx, dy: dy)
        #expect(d.events.filter { $0.gesture == .swipe }.count == 1)
        #expect(d.actions == KeyCombination(parsing: keys)?.actions)
        #expect(d.actions.count >= 2)
    }

    /// Custom swipeKeys are used; a direction without an entry does nothing.
    @Test func customSwipeKeys() {
        var d = MapperDriver { s in
            s.swipeKeys = [.up: KeyCombination(modifiers: [.control, .alt], key: .named(.arrowUp))]
        }
        Self.swipe(&d, dx: 0, dy: -20)
        #expect(
            d.take() == [
                .key(.named(.control), .down), .key(.named(.alt), .down), .key(.named(.arrowUp), .down),
                .key(.named(.arrowUp), .up), .key(.named(.alt), .up), .key(.named(.control), .up),
            ])
        Self.swipe(&d, dx: 20, dy: 0, at: 2000)
        #expect(d.events.filter { $0.gesture == .swipe }.count == 2)
        #expect(d.take().isEmpty)
    }

    /// Three fingers down, one lifted, two flicking: the swipe counts three pointers but ends
    /// a scroll, and presses no keys (the scroll's own end, as for hooks); the same three
    /// fingers swiping together press them.
    @Test func swipeEndingAScrollPressesNoKeys() {
        var d = MapperDriver()
        for i in 1...3 { d.down(i, 100 + 50 * Double(i), 400, t: Double(i - 1) * 5) }
        d.up(3, 250, 400, t: 40)
        for step in 1...10 {
            let s = Double(step)
            d.moveFingers([(1, 150 - 20 * s, 400), (2, 200 - 20 * s, 400)], t: 50 + 12 * s)
        }
        d.up(1, -50, 400, t: 171)
        d.up(2, 0, 400, t: 172)
        let swipes = d.events.filter { $0.gesture == .swipe }
        #expect(swipes.count == 1)
        guard case .swipe(let fields)? = swipes.first?.detail else { return }
        #expect(swipes.first?.pointers == 3 && fields.ends == .scroll, "\(swipes)")
        #expect(d.actions.presses.filter { $0 == .key(.named(.alt), .down) }.isEmpty, "\(d.actions)")
    }

    /// One- and two-finger swipes press no keys (one finger moves the pointer, two scroll).
    @Test func otherSwipesDoNothing() {
        var d = MapperDriver()
        d.down(1, 100, 400, t: 0)
        d.stroke(1, from: (100, 400), to: (300, 400), start: 0, duration: 100, steps: 10)
        d.up(1, 300, 400, t: 105)
        var two = MapperDriver()
        Self.swipe(&two, dx: 20, dy: 0, fingers: 2)
        #expect(d.events.contains { $0.gesture == .swipe } && two.events.contains { $0.gesture == .swipe })
        #expect(d.actions.presses.isEmpty && two.actions.presses.isEmpty)
    }
}
