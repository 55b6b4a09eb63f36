import CUInput
import GestureControl
import Testing

@testable import GesturePadHost

/// The one policy for a keymap of several layouts, on real XKB layouts compiled by xkbcommon:
/// what the backends typing key codes (uinput, touchpad, KDE's portal) accept is what every
/// layout types on the same key and level — refused otherwise, never typed wrong.
@Suite struct LayoutAgreementTests {
    private func layouts(_ names: String, _ variants: String = "") throws -> [KeymapLayout] {
        try #require(XKBKeymap(layout: names, variant: variants)?.layouts, "xkbcommon cannot compile \(names)")
    }

    private func stroke(_ code: Int32, shift: Bool = false) -> EvdevKeys.Stroke {
        EvdevKeys.Stroke(code: EvdevCode(code), shifted: shift)
    }

    /// US and Russian: every letter sits on a key that types Cyrillic in the other, so no
    /// letter of either is accepted; digits, space and the punctuation both have on the same
    /// key and level are.
    @Test func usRussian() throws {
        let both = try layouts("us,ru")
        #expect(both.count == 2)
        let agreed = try #require(EvdevLayout(agreedBy: both))
        #expect(agreed.names == both.map(\.name))
        for scalar in "abcxyzABCXYZжЖяЯё".unicodeScalars { #expect(agreed.stroke(scalar) == nil, "\(scalar)") }
        #expect(agreed.stroke("1") == stroke(KEY_1))
        #expect(agreed.stroke(" ") == stroke(KEY_SPACE))
        #expect(agreed.stroke("-") == stroke(KEY_MINUS))
        #expect(agreed.stroke("!") == stroke(KEY_1, shift: true))
        #expect(agreed.stroke("@") == nil, "Shift+2 types \" in Russian")
        // What the protocol layer checks a text against says the same, and names both layouts.
        let table = try #require(agreed.table)
        #expect(table.names == agreed.names)
        #expect(table.keysym(for: "1") != nil && table.keysym(for: "a") == nil && table.keysym(for: "ж") == nil)
        #expect(Set(table.keysyms.keys) == Set(agreed.strokes.keys))
    }

    /// US and German: y and z are on each other's key, so both are refused; the letters on the
    /// same key are kept; German's umlauts have no US counterpart and are refused.
    @Test func usGerman() throws {
        let agreed = try #require(EvdevLayout(agreedBy: try layouts("us,de")))
        #expect(agreed.stroke("y") == nil && agreed.stroke("z") == nil)
        #expect(agreed.stroke("Y") == nil && agreed.stroke("Z") == nil)
        #expect(agreed.stroke("a") == stroke(KEY_A))
        #expect(agreed.stroke("A") == stroke(KEY_A, shift: true))
        #expect(agreed.stroke("ö") == nil)
        #expect(agreed.stroke("1") == stroke(KEY_1))
        // The other order: the same refusals (German first: its own strokes where they agree).
        let reversed = try #require(EvdevLayout(agreedBy: try layouts("de,us")))
        #expect(reversed.stroke("y") == nil && reversed.stroke("z") == nil && reversed.stroke("ö") == nil)
        #expect(reversed.stroke("a") == stroke(KEY_A))
    }

    /// One layout: exactly its own strokes, as before (German's AltGr level included).
    @Test func singleLayoutUnchanged() throws {
        for name in ["us", "de", "ru", "fr"] {
            let one = try layouts(name)
            let agreed = try #require(EvdevLayout(agreedBy: one))
            #expect(agreed == EvdevLayout(one[0]), "\(name)")
        }
        let de = try #require(EvdevLayout(agreedBy: try layouts("de")))
        #expect(de.stroke("€") == EvdevKeys.Stroke(code: EvdevCode(KEY_E), shifted: false, levelThree: true))
        #expect(EvdevLayout(agreedBy: []) == nil)
    }

    /// KDE's portal types by key code with the same policy: its table is the agreed strokes.
    @Test func theKDEPortalAgrees() throws {
        let both = try layouts("us,ru")
        let table = try #require(PortalKeymap.keycodeTable(both))
        let agreed = try #require(EvdevLayout(agreedBy: both))
        #expect(Set(table.strokes.keys) == Set(agreed.strokes.keys))
        #expect(table.names == agreed.names)
    }

    /// GNOME appends its UI language's layout: with several, that last one is not selectable.
    @Test func gnomesAppendedLayout() throws {
        let three = try layouts("us,de,ru")
        #expect(KeymapLayout.selectable(three, localeLayoutLast: true).map(\.name) == three.prefix(2).map(\.name))
        #expect(KeymapLayout.selectable(Array(three.prefix(1)), localeLayoutLast: true).count == 1)
        #expect(KeymapLayout.selectable(three, localeLayoutLast: false).count == 3)
    }
}
