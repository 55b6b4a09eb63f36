import GestureControl
import Testing

@testable import GesturePadHost

/// The one held-input ledger and scroll state every backend's encoder keeps (`HeldKeys`,
/// `HeldButtons`, `KeyHolders`, `ScrollState`).
struct HeldInputLedgerTests {
    @Test func heldKeysInPressOrder() {
        var keys = HeldKeys<Int>()
        #expect(!keys.isHeld(.named(.control)))
        keys.hold(.named(.control), 29)
        keys.hold(.character("a"), 30)
        #expect(keys.isHeld(.character("a")) && keys.entries.map(\.payload) == [29, 30])
        #expect(keys.release(.character("b")) == nil)  // not held: nothing
        #expect(keys.release(.named(.control)) == 29)
        #expect(keys.release(.named(.control)) == nil)  // released once
        keys.hold(.named(.shift), 42)
        let last = keys.popLast()?.payload
        let before = keys.popLast()?.payload
        let none = keys.popLast()
        #expect(last == 42 && before == 30 && none == nil && keys.isEmpty)
    }

    @Test func heldButtonsChangeOnlyWhatChanges() {
        var buttons = HeldButtons<HostButton>()
        let changes = [
            buttons.change(.left, pressed: true), buttons.change(.left, pressed: true),
            buttons.change(.right, pressed: false), buttons.change(.right, pressed: true),
        ]
        #expect(changes == [true, false, false, true])
        let popped = [buttons.popLast(), buttons.popLast(), buttons.popLast()]
        #expect(popped == [.right, .left, nil])
    }

    /// Shift held by a key and needed by a character: one press, one release, at the last holder.
    @Test func keyHoldersShareOnePress() {
        var holders = KeyHolders(codes: 8)
        let first = holders.take(2)
        let second = holders.take(2)
        #expect(first && !second)
        let one = holders.letGo(2)
        #expect(!one && holders.isDown(2))
        let last = holders.letGo(2)
        #expect(last && !holders.isDown(2))
        let again = holders.letGo(2)
        let outside = holders.take(99) || holders.letGo(-1)
        #expect(!again && !outside)  // free already; out of range: ignored
        _ = holders.take(5)
        _ = holders.take(1)
        let down = holders.releaseAll()
        let after = holders.releaseAll()
        #expect(down == [1, 5] && after.isEmpty)
    }

    /// Remainders add up across calls and survive a stop; a smooth scroll is ended once.
    @Test func scrollState() {
        var scroll = ScrollState()
        var down = 0
        for _ in 0..<10 { down += scroll.add(dx: 0, dy: 0.25).down.detents }
        #expect(down == 2)
        let idle = scroll.stop()
        #expect(!idle)
        scroll.sentSmooth()
        #expect(scroll.scrolling)
        let ended = scroll.stop()
        let twice = scroll.stop()
        #expect(ended && !twice)
        // The half detent left over is kept: two more quarters make the third click.
        let third = scroll.add(dx: 0, dy: 0.25).down.detents
        let fourth = scroll.add(dx: 0, dy: 0.25).down.detents
        #expect(third == 0 && fourth == 1)
        #expect(ScrollState.smoothUnits(.infinity, unitsPerDetent: 10) == 0)
        #expect(ScrollState.smoothUnits(1e9, unitsPerDetent: 10) == WheelAccumulator.maximumDetentsPerAction * 10)
        #expect(ScrollState.smoothUnits(-0.5, unitsPerDetent: 10) == -5)
    }
}
