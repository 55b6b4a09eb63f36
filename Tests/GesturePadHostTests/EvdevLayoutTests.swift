import CUInput
import GestureControl
import Testing

@testable import GesturePadHost

/// Which key, with which modifiers, the uinput keyboard presses for a character on a named
/// layout: real XKB layouts compiled by xkbcommon from the system's XKB data.
@Suite struct EvdevLayoutTests {
    private func stroke(_ code: Int32, shift: Bool = false, altGr: Bool = false) -> EvdevKeys.Stroke {
        EvdevKeys.Stroke(code: EvdevCode(code), shifted: shift, levelThree: altGr)
    }

    /// German: Y and Z trade places, umlauts and ß have keys of their own, € and @ are on AltGr
    /// (the right Alt key), and the dead keys type nothing alone.
    @Test func german() throws {
        let de = try EvdevLayout.compile("de")
        #expect(de.name == "German")
        #expect(de.levelThreeKey == EvdevCode(KEY_RIGHTALT))
        #expect(de.stroke("z") == stroke(KEY_Y))
        #expect(de.stroke("y") == stroke(KEY_Z))
        #expect(de.stroke("Z") == stroke(KEY_Y, shift: true))
        #expect(de.stroke("ö") == stroke(KEY_SEMICOLON))
        #expect(de.stroke("Ä") == stroke(KEY_APOSTROPHE, shift: true))
        #expect(de.stroke("ß") == stroke(KEY_MINUS))
        #expect(de.stroke("€") == stroke(KEY_E, altGr: true))
        #expect(de.stroke("@") == stroke(KEY_Q, altGr: true))
        #expect(de.stroke("&") == stroke(KEY_6, shift: true))
        #expect(de.stroke("^") == nil)
        #expect(de.stroke("中") == nil)
        #expect(de.table?.keysym(for: "€") == 0x20AC)
        #expect(de.table?.names == ["German"])
    }

    /// A variant: without dead keys German types ^ and ` alone.
    @Test func variant() throws {
        let de = try EvdevLayout.compile("de+nodeadkeys")
        #expect(de.stroke("^") == stroke(KEY_GRAVE))
        #expect(try EvdevLayout.compile("de(nodeadkeys)") == de)
    }

    /// Compiled US agrees with the built-in table on letters, digits and their shifted symbols.
    @Test func usAgreesWithTheBuiltInTable() throws {
        let us = try EvdevLayout.compile("us")
        for scalar in "abcxyzABCXYZ0123456789!@#$%^&*()-_=+[]{};:'\",./?`~\\| ".unicodeScalars {
            #expect(us.stroke(scalar) == EvdevLayout.us.stroke(scalar), "\(scalar)")
        }
        #expect(EvdevLayout.us.table == nil)
    }

    /// French: A and Q, Z and W trade places; digits need Shift.
    @Test func french() throws {
        let fr = try EvdevLayout.compile("fr")
        #expect(fr.stroke("a") == stroke(KEY_Q))
        #expect(fr.stroke("w") == stroke(KEY_Z))
        #expect(fr.stroke("1") == stroke(KEY_1, shift: true))
        #expect(fr.stroke("é") == stroke(KEY_2))
    }

    /// Names: a layout and its variant, or a refusal; an unknown or doubled layout is an error.
    @Test func names() throws {
        #expect(EvdevLayout.parse("de")! == ("de", ""))
        #expect(EvdevLayout.parse(" de+nodeadkeys ")! == ("de", "nodeadkeys"))
        #expect(EvdevLayout.parse("us(intl)")! == ("us", "intl"))
        #expect(EvdevLayout.parse("") == nil)
        #expect(EvdevLayout.parse("us,de") == nil)
        #expect(EvdevLayout.parse("de;rm -rf") == nil)
        #expect(throws: ControlBackendError.self) { try EvdevLayout.compile("zz") }
        #expect(throws: ControlBackendError.self) { try EvdevLayout.compile("us,de") }
        #expect(throws: ControlBackendError.self) { try UInputBackend.checkKeyboardLayout("nosuchlayout") }
    }

    /// The device declares every key a layout presses (German's 102nd key: < > |).
    @Test func deviceDeclaresTheLayoutsKeys() throws {
        let de = try EvdevLayout.compile("de")
        #expect(de.stroke("<") == stroke(KEY_102ND))
        let declared = Set(UInputExecutor.deviceSpec(for: de).keys)
        #expect(Set(de.codes).isSubset(of: declared))
        #expect(declared.contains(EvdevCode(KEY_RIGHTALT)))
    }

    /// What the protocol layer refuses with a named layout: what it lacks, with its name.
    @Test func capabilities() throws {
        let de = try EvdevLayout.compile("de").capabilities(takesContacts: true)
        #expect(de.takesContacts)
        #expect(de.canType("ö") && de.canType("€") && !de.canType("中") && !de.canType("^"))
        #expect(de.limitation.contains("German"))
        #expect(EvdevLayout.us.capabilities(takesContacts: false) == ControlCapabilities(characters: .usLayoutASCII))
    }
}

/// What counts as a character to type is one rule for every backend (issue 43): a keymap's key
/// whose keysym is a non-character or a control is no character, as `HostKey` says.
struct PrintableRuleTests {
    @Test func theKeymapAndHostKeyAgree() {
        for value: UInt32 in [0, 0x09, 0x1F, 0x20, 0x41, 0x7F, 0x85, 0xA0, 0xE9, 0xFDD0, 0xFFFE, 0x1FFFF, 0x1F642] {
            let host = Unicode.Scalar(value).map(HostKey.isPrintable) ?? false
            #expect(KeymapLayout.isPrintable(value) == host, "U+\(String(value, radix: 16))")
        }
        #expect(!KeymapLayout.isPrintable(0xFDD0) && KeymapLayout.isPrintable(0x1F642))
    }
}
