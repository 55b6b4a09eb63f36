/// Compares and decodes string tokens. Comparison of an escape-free token is a byte compare
/// (the hot path); tokens with escapes are decoded first (rare, allocates).
enum JSONStringDecoder {
    /// Whether `token` spells exactly `word` (ASCII).
    static func equals(_ token: JSONString, _ word: String, in s: Span<UInt8>) -> Bool {
        guard token.hasEscapes else {
            guard token.end - token.start == word.utf8.count else { return false }
            var i = token.start
            for byte in word.utf8 {
                if s[i] != byte { return false }
                i += 1
            }
            return true
        }
        return decode(token, in: s).elementsEqual(word.utf8)
    }

    /// The token's text with escapes resolved, as a `String`.
    static func string(_ token: JSONString, in s: Span<UInt8>) -> String {
        String(decoding: decode(token, in: s), as: UTF8.self)
    }

    /// The token's UTF-8 bytes with escapes resolved. An unpaired surrogate escape becomes U+FFFD.
    /// The token must come from `JSONScanner.scanString` (escapes already validated).
    static func decode(_ token: JSONString, in s: Span<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(token.end - token.start)
        var i = token.start
        while i < token.end {
            let byte = s[i]
            guard byte == UInt8(ascii: "\\"), i + 1 < token.end else {
                out.append(byte)
                i += 1
                continue
            }
            let escape = s[i + 1]
            i += 2
            switch escape {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                let unit = hex4(s, at: i, end: token.end)
                i += 4
                var scalar = Unicode.Scalar(UInt32(unit ?? 0xFFFD))
                if let unit, (0xD800..<0xDC00).contains(unit) {
                    // A high surrogate: pair it with a following \uDC00-\uDFFF escape.
                    if i + 6 <= token.end, s[i] == UInt8(ascii: "\\"), s[i + 1] == UInt8(ascii: "u"),
                        let low = hex4(s, at: i + 2, end: token.end), (0xDC00..<0xE000).contains(low)
                    {
                        let value = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
                        scalar = Unicode.Scalar(value)
                        i += 6
                    } else {
                        scalar = nil
                    }
                }
                appendScalar(scalar ?? "\u{FFFD}", to: &out)
            default: out.append(escape)  // \" \\ \/
            }
        }
        return out
    }

    private static func hex4(_ s: Span<UInt8>, at i: Int, end: Int) -> UInt16? {
        guard i + 4 <= end else { return nil }
        var value: UInt16 = 0
        for k in i..<(i + 4) {
            guard let digit = JSONScanner.hexValue(s[k]) else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    private static func appendScalar(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        out.append(contentsOf: scalar.utf8)
    }
}
