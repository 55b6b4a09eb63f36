import GestureEngine
import Testing

/// hover for mouse and pen pointers with no button held (GESTURES.md "hover").
struct HoverTests {
    /// Hover around a click: began/changed, ended at the down, a tap, then a new hover after the up.
    @Test func hoverAroundAClick() {
        var d = EngineDriver()
        d.move(1, 10, 10, t: 0, .mouse)
        d.move(1, 20, 10, t: 16, .mouse)
        d.down(1, 20, 10, t: 30, .mouse)
        d.up(1, 20, 10, t: 90, .mouse)
        d.move(1, 25, 10, t: 100, .mouse)
        d.flush()
        #expect(
            d.take() == [
                "hover.began", "hover.changed", "hover.ended", "press.ended", "release.ended", "tap.ended", "end.ended",
                "hover.began",
            ])
        let h = d.all(.hover)
        #expect(h.allSatisfy { $0.pointers == 0 && $0.text("pointerType") == "mouse" && $0.number("id") == 1 })
        #expect(d.all(.tap).first?.pointers == 1)
    }

    /// A pen hovers and leaves: ended at leave with its last location.
    @Test func penLeaves() {
        var d = EngineDriver()
        d.move(7, 50, 50, t: 0, .pen)
        d.move(7, 60, 70, t: 10, .pen)
        d.send(.leave(id: 7, t: 30))
        #expect(d.take() == ["hover.began", "hover.changed", "hover.ended"])
        #expect(d.all(.hover).last?.x == 60 && d.all(.hover).last?.t == 30)
    }

    /// A touch pointer that is not down never hovers.
    @Test func touchDoesNotHover() {
        var d = EngineDriver()
        d.move(1, 50, 50, t: 0)
        d.flush()
        #expect(d.events.isEmpty)
    }

    /// hoverMinInterval drops changed events closer than it to the last one sent.
    @Test func hoverMinInterval() {
        var d = EngineDriver { $0.hoverMinInterval = 20 }
        for i in 0..<10 { d.move(1, Double(i), 0, t: Double(i) * 8, .mouse) }
        d.flush()
        #expect(d.all(.hover).map(\.t) == [0, 24, 48, 72])
    }

    /// cancel "all" cancels every hover; a cancel of a hovering id cancels that hover.
    @Test func cancelHover() {
        var d = EngineDriver()
        d.move(1, 10, 10, t: 0, .mouse)
        d.move(2, 10, 10, t: 5, .pen)
        d.cancel(2, t: 10)
        #expect(d.take() == ["hover.began", "hover.began", "hover.cancelled"])
        d.cancel(nil, t: 20)
        #expect(d.take() == ["hover.cancelled"])
    }
}
