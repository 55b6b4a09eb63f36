import GestureControl
import Testing

@testable import GesturePadHost

@Suite struct X11KeysymTests {
    /// Every named key has its own keysym.
    @Test func everyNamedKeyHasADistinctKeysym() {
        let keysyms = NamedKey.allCases.map(X11Keysyms.keysym(for:))
        #expect(!keysyms.contains(X11Keysyms.none))
        #expect(Set(keysyms).count == NamedKey.allCases.count)
    }

    /// The keysyms X11/keysym.h and XF86keysym.h give the keys named in the contract.
    @Test func namedKeysymValues() {
        #expect(X11Keysyms.keysym(for: .enter) == 0xFF0D)
        #expect(X11Keysyms.keysym(for: .backspace) == 0xFF08)
        #expect(X11Keysyms.keysym(for: .arrowLeft) == 0xFF51)
        #expect(X11Keysyms.keysym(for: .meta) == 0xFFEB)
        #expect(X11Keysyms.keysym(for: .altGraph) == 0xFE03)
        #expect(X11Keysyms.keysym(for: .f1) == 0xFFBE)
        #expect(X11Keysyms.keysym(for: .f12) == 0xFFC9)
        #expect(X11Keysyms.keysym(for: .audioVolumeUp) == 0x1008_FF13)
        #expect(X11Keysyms.keysym(for: .mediaPlayPause) == 0x1008_FF14)
        #expect(X11Keysyms.keysym(for: .browserRefresh) == 0x1008_FF73)
    }

    /// Latin-1 characters are their own keysyms; the rest are 0x01000000 + code point.
    @Test func characterKeysyms() {
        #expect(X11Keysyms.character("a") == 0x61)
        #expect(X11Keysyms.character("~") == 0x7E)
        #expect(X11Keysyms.character("é") == 0xE9)
        #expect(X11Keysyms.character("\u{A0}") == 0xA0)
        #expect(X11Keysyms.character("中") == 0x0100_4E2D)
        #expect(X11Keysyms.character("€") == 0x0100_20AC)
        #expect(X11Keysyms.character("😀") == 0x0101_F600)
    }

    /// In text, newline is Return, tab is Tab, other control characters type nothing.
    @Test func textKeysyms() {
        #expect(X11Keysyms.textKeysym("\n") == 0xFF0D)
        #expect(X11Keysyms.textKeysym("\t") == 0xFF09)
        #expect(X11Keysyms.textKeysym("\r") == nil)
        #expect(X11Keysyms.textKeysym("\u{7}") == nil)
        #expect(X11Keysyms.textKeysym("x") == 0x78)
    }

    /// Lookups search column 0 of every keycode before column 1, as XKeysymToKeycode does.
    @Test func keymapLookup() {
        let keymap = FakeKeymap.usLike
        #expect(keymap.position(of: 0x61) == .init(keycode: 38, shifted: false))
        #expect(keymap.position(of: 0x41) == .init(keycode: 38, shifted: true))
        #expect(keymap.position(of: 0x31) == .init(keycode: 10, shifted: false))
        #expect(keymap.position(of: 0xFFB1) == .init(keycode: 9, shifted: false))
        #expect(keymap.position(of: 0xE9) == nil)
        #expect(keymap.position(of: 0) == nil)
        #expect(keymap.unboundKeycodes == [8, 200, 201])
        #expect(keymap.keysyms(of: 38) == [0x61, 0x41, 0x61, 0x41])
        #expect(keymap.keysyms(of: 7).isEmpty)
    }
}

/// Small keymaps for the keyboard tests: keycodes 8…201, four keysyms each.
enum FakeKeymap {
    static let shiftL: Keysym = 0xFFE1

    /// a/A at 38, Shift_L at 50, Return at 36, Tab at 23, space at 65, 1/! at 10, KP_1/1 at 9,
    /// the rest of 9…199 bound to placeholder keysyms; 8, 200 and 201 free.
    static var usLike: X11Keymap { make(free: [8, 200, 201]) }

    static func make(free: Set<Keycode>, extra: [Keycode: [Keysym]] = [:]) -> X11Keymap {
        var keysyms: [Keysym] = []
        for keycode in Keycode(8)...201 {
            var row: [Keysym]
            switch keycode {
            case 38: row = [0x61, 0x41, 0x61, 0x41]
            case 50: row = [shiftL, 0, shiftL, 0]
            case 36: row = [0xFF0D, 0, 0xFF0D, 0]
            case 23: row = [0xFF09, 0xFE20, 0xFF09, 0xFE20]
            case 65: row = [0x20, 0, 0x20, 0]
            case 10: row = [0x31, 0x21, 0x31, 0x21]
            case 9: row = [0xFFB1, 0x31, 0xFFB1, 0x31]
            default: row = free.contains(keycode) ? [0, 0, 0, 0] : [0x2000 + Keysym(keycode), 0, 0, 0]
            }
            if let replacement = extra[keycode] { row = replacement }
            keysyms += row
        }
        return X11Keymap(minimumKeycode: 8, keysymsPerKeycode: 4, keysyms: keysyms)
    }
}
