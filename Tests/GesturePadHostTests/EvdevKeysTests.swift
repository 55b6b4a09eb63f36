import CUInput
import GestureControl
import Testing

@testable import GesturePadHost

@Suite struct EvdevKeysTests {
    /// Every named key has its own evdev code, and the device declares it.
    @Test func everyNamedKeyHasADistinctCode() {
        let codes = NamedKey.allCases.map(EvdevKeys.code(for:))
        #expect(!codes.contains(0))
        #expect(Set(codes).count == NamedKey.allCases.count)
        #expect(Set(codes).isSubset(of: Set(EvdevKeys.allCodes)))
    }

    /// The codes the contract's keys need.
    @Test func namedKeyCodes() {
        #expect(EvdevKeys.code(for: .audioVolumeUp) == EvdevCode(KEY_VOLUMEUP))
        #expect(EvdevKeys.code(for: .audioVolumeDown) == EvdevCode(KEY_VOLUMEDOWN))
        #expect(EvdevKeys.code(for: .audioVolumeMute) == EvdevCode(KEY_MUTE))
        #expect(EvdevKeys.code(for: .mediaPlayPause) == EvdevCode(KEY_PLAYPAUSE))
        #expect(EvdevKeys.code(for: .meta) == EvdevCode(KEY_LEFTMETA))
        #expect(EvdevKeys.code(for: .enter) == 28)
        #expect(EvdevKeys.code(for: .f11) == 87)
        #expect(EvdevKeys.code(for: .f12) == 88)
    }

    /// A US layout types every printable ASCII character: capitals and the symbols above the
    /// digits and punctuation with Shift, the rest without.
    @Test func usLayoutCoversPrintableASCII() {
        let declared = Set(EvdevKeys.allCodes)
        let shiftedSymbols = Set("~!@#$%^&*()_+{}|:\"<>?".unicodeScalars)
        for value in UInt32(0x20)...0x7E {
            guard let scalar = Unicode.Scalar(value), let stroke = EvdevKeys.usLayout(scalar) else {
                Issue.record("no US key for \(value)")
                continue
            }
            let shouldShift = ("A"..."Z").contains(scalar) || shiftedSymbols.contains(scalar)
            #expect(stroke.shifted == shouldShift, "\(scalar)")
            #expect(declared.contains(stroke.code), "\(scalar)")
        }
        // 95 characters on 47 keys: every key but space types two.
        let keys = Set((UInt32(0x20)...0x7E).compactMap { Unicode.Scalar($0).flatMap(EvdevKeys.usLayout)?.code })
        #expect(keys.count == 48)
    }

    /// Some exact keys, and nothing outside printable ASCII.
    @Test func usLayoutExamples() {
        #expect(EvdevKeys.usLayout("a") == .init(code: EvdevCode(KEY_A), shifted: false))
        #expect(EvdevKeys.usLayout("Q") == .init(code: EvdevCode(KEY_Q), shifted: true))
        #expect(EvdevKeys.usLayout("0") == .init(code: EvdevCode(KEY_0), shifted: false))
        #expect(EvdevKeys.usLayout("@") == .init(code: EvdevCode(KEY_2), shifted: true))
        #expect(EvdevKeys.usLayout("\"") == .init(code: EvdevCode(KEY_APOSTROPHE), shifted: true))
        #expect(EvdevKeys.usLayout(" ") == .init(code: EvdevCode(KEY_SPACE), shifted: false))
        #expect(EvdevKeys.usLayout("é") == nil)
        #expect(EvdevKeys.usLayout("\u{7F}") == nil)
        #expect(EvdevKeys.usLayout("\n") == nil)
        #expect(EvdevKeys.textStroke("\n") == .init(code: EvdevCode(KEY_ENTER), shifted: false))
        #expect(EvdevKeys.textStroke("\t") == .init(code: EvdevCode(KEY_TAB), shifted: false))
    }

    /// The device declares the three buttons and Shift.
    @Test func buttonsAndShiftAreDeclared() {
        let declared = Set(EvdevKeys.allCodes)
        #expect(declared.isSuperset(of: [EvdevCode(BTN_LEFT), EvdevCode(BTN_RIGHT), EvdevCode(BTN_MIDDLE)]))
        #expect(declared.contains(EvdevCode(KEY_LEFTSHIFT)))
    }
}
