import GestureControl
import GestureEngine
import Testing

/// Keyboard and button-bar commands (CONTROL.md "Page → server: keyboard and buttons").
struct CommandTests {
    /// Text is typed as is.
    @Test func text() {
        var d = MapperDriver()
        d.command(.text("héllo 中"))
        #expect(d.actions == [.text("héllo 中")])
    }

    /// A key with modifiers: modifiers down in the given order, key down, key up, modifiers up in reverse.
    @Test func keyOrdering() {
        var d = MapperDriver()
        d.command(.key(.character("t"), modifiers: [.control, .shift, .alt]))
        #expect(
            d.actions == [
                .key(.named(.control), .down), .key(.named(.shift), .down), .key(.named(.alt), .down),
                .key(.character("t"), .down), .key(.character("t"), .up),
                .key(.named(.alt), .up), .key(.named(.shift), .up), .key(.named(.control), .up),
            ])
        #expect(!d.mapper.isHolding)
    }

    /// A key without modifiers is pressed and released; a repeated modifier is pressed once.
    @Test func keyWithoutAndRepeatedModifiers() {
        var d = MapperDriver()
        d.command(.key(.named(.enter), modifiers: []))
        #expect(d.take() == [.key(.named(.enter), .down), .key(.named(.enter), .up)])
        d.command(.key(.character("a"), modifiers: [.shift, .shift]))
        #expect(
            d.take() == [
                .key(.named(.shift), .down), .key(.character("a"), .down), .key(.character("a"), .up),
                .key(.named(.shift), .up),
            ])
    }

    /// Button click is down and up; down and up commands press and release.
    @Test func buttons() {
        var d = MapperDriver()
        d.command(.button(.middle, .click))
        #expect(d.take() == [.button(.middle, .down), .button(.middle, .up)])
        d.command(.button(.right, .down))
        #expect(d.take() == [.button(.right, .down)])
        #expect(d.mapper.isHolding)
        d.command(.button(.right, .up))
        #expect(d.take() == [.button(.right, .up)])
        #expect(!d.mapper.isHolding)
    }

    /// A down of a held button does nothing; an up of a button not held does nothing.
    @Test func nothingTwice() {
        var d = MapperDriver()
        d.command(.button(.left, .up))
        #expect(d.take().isEmpty)
        d.command(.button(.left, .down))
        d.command(.button(.left, .down))
        #expect(d.take() == [.button(.left, .down)])
        d.command(.button(.left, .click))
        #expect(d.take().isEmpty)
        d.command(.button(.left, .up))
        d.command(.button(.left, .up))
        #expect(d.take() == [.button(.left, .up)])
    }

    /// The button bar's up releases a button a tap holds; the tap's deadline then releases nothing.
    @Test func upReleasesWhoeverHolds() {
        var d = MapperDriver()
        d.tap(1, 100, 100, at: 0)
        d.command(.button(.left, .up))
        d.advance(to: 1000)
        #expect(d.actions == [.button(.left, .down), .button(.left, .up)])
    }

    /// A button held by the button bar survives a tap of the same button (no second press, no release).
    @Test func tapOnHeldButton() {
        var d = MapperDriver()
        d.command(.button(.left, .down))
        d.tap(1, 100, 100, at: 0)
        d.advance(to: 1000)
        #expect(d.actions == [.button(.left, .down)])
        #expect(d.mapper.isHolding)
    }

    /// releaseAll releases buttons held by commands (a cancel does not).
    @Test func releaseAllReleasesCommandButtons() {
        var d = MapperDriver()
        d.command(.button(.right, .down))
        d.command(.button(.middle, .down))
        d.cancel(nil, t: 10)
        #expect(d.take() == [.button(.right, .down), .button(.middle, .down)])
        d.releaseAll()
        #expect(d.take() == [.button(.middle, .up), .button(.right, .up)])
        #expect(!d.mapper.isHolding)
        d.releaseAll()
        #expect(d.take().isEmpty)
    }

    /// A Control+key during a pinch: Control (held by the pinch) is not pressed again nor released by the command.
    @Test func keyDuringPinch() {
        var d = MapperDriver()
        d.down(1, 100, 300, t: 0)
        d.down(2, 200, 300, t: 10)
        d.moveFingers([(1, 75, 300), (2, 225, 300)], t: 30)  // scale 1.5: one step
        #expect(d.take() == [.key(.named(.control), .down), .wheel(dx: 0, dy: -1)])
        d.command(.key(.character("0"), modifiers: [.control]))
        #expect(d.take() == [.key(.character("0"), .down), .key(.character("0"), .up)])
        d.up(1, 75, 300, t: 60)
        #expect(d.take() == [.key(.named(.control), .up)])
    }

    /// The spotlight is shown and hidden once each (again is nothing), and a connection that
    /// goes (releaseAll) hides the one it showed.
    @Test func spotlight() {
        var d = MapperDriver()
        d.command(.spotlight(true))
        d.command(.spotlight(true))
        #expect(d.take() == [.spotlight(true)])
        d.command(.spotlight(false))
        d.command(.spotlight(false))
        #expect(d.take() == [.spotlight(false)])
        d.releaseAll()
        #expect(d.take().isEmpty)  // hidden already: nothing to hide
        d.command(.spotlight(true))
        _ = d.take()
        d.releaseAll()
        #expect(d.take() == [.spotlight(false)])
    }
}
