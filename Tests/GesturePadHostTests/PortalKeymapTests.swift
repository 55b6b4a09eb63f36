import GestureControl
import Testing

@testable import GesturePadHost

/// Which characters the portal can type on a layout, from real XKB layouts (xkbcommon and the
/// system's XKB data, as the compositor compiles them) and made-up keys.
@Suite struct PortalKeymapTests {
    private func table(_ layout: String, localeLayoutLast: Bool = false) throws -> DesktopLayout.Table {
        let layouts = try #require(XKBKeymap(layout: layout)?.layouts, "xkbcommon cannot compile \(layout)")
        return try #require(PortalKeymap.table(layouts, localeLayoutLast: localeLayoutLast))
    }

    private func key(_ keycode: UInt32, _ level: UInt32, _ keysym: UInt32, _ scalar: UInt32 = 0) -> KeymapLayout.Key {
        .init(keycode: keycode, level: level, keysym: keysym, scalar: scalar)
    }

    /// US: every printable ASCII character, each with its own keysym; beyond ASCII only the
    /// evdev keymap's extra keys, € (KEY_EURO) and ± (KEY_KPPLUSMINUS) — GNOME 43 types both.
    @Test func us() throws {
        let us = try table("us")
        #expect(us.names == ["English (US)"])
        for value in UInt32(0x20)...0x7E {
            #expect(us.keysyms[value] == value, "U+\(String(value, radix: 16))")
        }
        #expect(us.keysyms.filter { !(0x20...0x7E).contains($0.key) } == [0x20AC: 0x20AC, 0xB1: 0xB1])
    }

    /// German: umlauts and ß as Latin-1 keysyms, € as EuroSign (0x20AC), @ at AltGr's level.
    @Test func german() throws {
        let german = try table("de")
        #expect(german.keysyms[0xF6] == 0xF6 && german.keysyms[0xDF] == 0xDF)
        #expect(german.keysyms[0x20AC] == 0x20AC)
        #expect(german.keysyms[0x40] == 0x40)
    }

    /// Russian: Cyrillic letters with their legacy keysyms (п is Cyrillic_pe, 0x6D0), and no
    /// Latin letters.
    @Test func russian() throws {
        let russian = try table("ru")
        #expect(russian.keysyms[0x43F] == 0x6D0)
        #expect(russian.keysyms[0x61] == nil)
        #expect(russian.keysyms[0x31] == 0x31)
    }

    /// Several layouts: only what all of them type with the same keysym (digits, not letters);
    /// GNOME's appended locale layout is left out.
    @Test func severalLayouts() throws {
        let both = try table("us,ru")
        #expect(both.names == ["English (US)", "Russian"])
        #expect(both.keysyms[0x31] == 0x31 && both.keysyms[0x61] == nil && both.keysyms[0x43F] == nil)
        let gnome = try table("de,us", localeLayoutLast: true)
        #expect(gnome.names == ["German"] && gnome.keysyms[0xF6] == 0xF6)
        let single = try table("us", localeLayoutLast: true)
        #expect(single.names == ["English (US)"])
    }

    /// The first key with a keysym decides, as the compositors search: a keysym first found at
    /// the fourth level (index 3), or at the second without Shift on the layout, cannot be typed;
    /// a character takes the first keysym that can. Control characters never count.
    @Test func reachableLevels() {
        let noShift = KeymapLayout(
            name: "test",
            keys: [key(10, 0, 0x61, 0x61), key(10, 1, 0x41, 0x41), key(11, 3, 0xE9, 0xE9), key(12, 0, 0xFF08, 0x08)])
        #expect(PortalKeymap.characters(of: noShift) == [0x61: 0x61])
        let withShift = KeymapLayout(name: "test", keys: noShift.keys + [key(50, 0, KeymapLayout.shiftKeysym)])
        #expect(PortalKeymap.characters(of: withShift) == [0x61: 0x61, 0x41: 0x41])
        let twoKeysyms = KeymapLayout(
            name: "test", keys: [key(10, 3, 0x20AC, 0x20AC), key(20, 0, 0x0100_20AC, 0x20AC), key(21, 0, 0x20AC, 0x20AC)])
        #expect(PortalKeymap.characters(of: twoKeysyms) == [0x20AC: 0x0100_20AC])
    }

    /// GNOME is recognized in XDG_CURRENT_DESKTOP's list, in any case.
    @Test func gnomeDesktop() {
        #expect(PortalDesktop(currentDesktop: "ubuntu:GNOME").appendsLocaleLayout)
        #expect(PortalDesktop(currentDesktop: "gnome").appendsLocaleLayout)
        #expect(!PortalDesktop(currentDesktop: "KDE").appendsLocaleLayout)
        #expect(!PortalDesktop(currentDesktop: nil).appendsLocaleLayout)
    }
}
