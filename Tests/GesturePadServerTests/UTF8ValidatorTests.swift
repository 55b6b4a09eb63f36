import Testing

@testable import GesturePadServer

@Suite struct UTF8ValidatorTests {
    private func valid(_ bytes: [UInt8]) -> Bool { UTF8Validator.isValid(bytes.span) }

    /// ASCII, multi-byte characters and the empty message are valid.
    @Test func acceptsWellFormedText() {
        #expect(valid([]))
        #expect(valid(Array(#"{"type":"ping","t":1}"#.utf8)))
        #expect(valid(Array("café ✋ 𝄞 日本".utf8)))
        #expect(valid([0xF4, 0x8F, 0xBF, 0xBF]))  // U+10FFFF
    }

    /// Truncated sequences, stray continuation bytes and invalid leads are refused.
    @Test func refusesBrokenSequences() {
        #expect(!valid([0x63, 0x61, 0x66, 0xC3]))  // "caf" + half of é, at the end
        #expect(!valid([0x80]))
        #expect(!valid([0xC3, 0x28]))
        #expect(!valid([0xFF]))
        #expect(!valid([0xE2, 0x82]))
    }

    /// Overlong forms, surrogates and code points above U+10FFFF are refused.
    @Test func refusesOverlongSurrogatesAndTooLarge() {
        #expect(!valid([0xC0, 0xAF]))
        #expect(!valid([0xE0, 0x80, 0xAF]))
        #expect(!valid([0xF0, 0x80, 0x80, 0xAF]))
        #expect(!valid([0xED, 0xA0, 0x80]))  // U+D800
        #expect(!valid([0xF4, 0x90, 0x80, 0x80]))  // U+110000
    }
}
