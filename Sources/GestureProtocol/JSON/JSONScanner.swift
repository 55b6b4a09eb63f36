/// A forward-only JSON tokenizer over a frame's bytes (RFC 8259 grammar, strict).
///
/// The bytes are passed to every call as a `Span<UInt8>` (a span cannot be stored without
/// lifetime annotations); the scanner keeps only its position. It allocates nothing: strings
/// come back as positions, numbers as values, containers inside unknown fields are skipped.
/// The input must already be valid UTF-8 (see `UTF8Validator`).
struct JSONScanner {
    /// Containers may nest this deep; deeper input is refused (no unbounded recursion).
    static let maxDepth = 64

    /// Offset of the next unread byte.
    var index = 0

    /// Skips JSON whitespace (space, tab, line feed, carriage return).
    mutating func skipWhitespace(_ s: Span<UInt8>) {
        while index < s.count {
            switch s[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// The next byte, if any, without consuming it.
    func peek(_ s: Span<UInt8>) -> UInt8? {
        index < s.count ? s[index] : nil
    }

    /// Consumes `byte` or throws `problem`.
    mutating func expect(_ byte: UInt8, _ s: Span<UInt8>, _ problem: StaticString) throws(JSONSyntaxError) {
        guard index < s.count, s[index] == byte else { throw JSONSyntaxError(offset: index, problem: problem) }
        index += 1
    }

    /// Scans any value. Objects and arrays are validated and skipped; `depth` is the nesting of
    /// the container holding the value.
    mutating func scanValue(_ s: Span<UInt8>, depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard let byte = peek(s) else { throw JSONSyntaxError(offset: index, problem: "expected a value") }
        switch byte {
        case UInt8(ascii: "\""): return .string(try scanString(s))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let (value, range) = try scanNumber(s)
            return .number(value, range)
        case UInt8(ascii: "t"): try scanLiteral("true", s); return .bool(true)
        case UInt8(ascii: "f"): try scanLiteral("false", s); return .bool(false)
        case UInt8(ascii: "n"): try scanLiteral("null", s); return .null
        case UInt8(ascii: "{"): try skipObject(s, depth: depth + 1); return .object
        case UInt8(ascii: "["):
            let start = index
            try skipArray(s, depth: depth + 1)
            return .array(start)
        default: throw JSONSyntaxError(offset: index, problem: "unexpected character, expected a value")
        }
    }

    /// Scans a string token; `index` is at its opening quote.
    mutating func scanString(_ s: Span<UInt8>) throws(JSONSyntaxError) -> JSONString {
        try expect(UInt8(ascii: "\""), s, "expected '\"'")
        let start = index
        var hasEscapes = false
        while index < s.count {
            let byte = s[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return JSONString(start: start, end: index - 1, hasEscapes: hasEscapes)
            case UInt8(ascii: "\\"):
                hasEscapes = true
                index += 1
                guard index < s.count else { break }
                switch s[index] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                    UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 1
                case UInt8(ascii: "u"):
                    index += 1
                    for _ in 0..<4 {
                        guard index < s.count, JSONScanner.hexValue(s[index]) != nil else {
                            throw JSONSyntaxError(offset: index, problem: "bad \\u escape in string")
                        }
                        index += 1
                    }
                default:
                    throw JSONSyntaxError(offset: index, problem: "bad escape in string")
                }
            case 0x00..<0x20:
                throw JSONSyntaxError(offset: index, problem: "control character in string")
            default:
                index += 1
            }
        }
        throw JSONSyntaxError(offset: index, problem: "unterminated string")
    }

    /// Scans a number token (strict JSON grammar) and converts it.
    mutating func scanNumber(_ s: Span<UInt8>) throws(JSONSyntaxError) -> (Double, Range<Int>) {
        let start = index
        var negative = false
        if peek(s) == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0  // significant digits accumulated in `mantissa`
        var dropped = false  // more digits than fit exactly
        var scale = 0  // decimal exponent correction from fraction digits / dropped digits
        func accumulate(_ d: UInt8, fraction: Bool) {
            if digits < 19 {
                mantissa = mantissa &* 10 &+ UInt64(d)
                if mantissa != 0 { digits += 1 }
                if fraction { scale -= 1 }
            } else {
                dropped = true
                if !fraction { scale += 1 }
            }
        }
        guard let first = peek(s), JSONScanner.isDigit(first) else {
            throw JSONSyntaxError(offset: index, problem: "expected a digit")
        }
        if first == UInt8(ascii: "0") {
            index += 1
        } else {
            while let b = peek(s), JSONScanner.isDigit(b) {
                accumulate(b &- 0x30, fraction: false)
                index += 1
            }
        }
        if peek(s) == UInt8(ascii: ".") {
            index += 1
            guard let b = peek(s), JSONScanner.isDigit(b) else {
                throw JSONSyntaxError(offset: index, problem: "expected a digit after '.'")
            }
            while let b = peek(s), JSONScanner.isDigit(b) {
                accumulate(b &- 0x30, fraction: true)
                index += 1
            }
        }
        var exponent = 0
        var exponentDigits = 0
        if let e = peek(s), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            index += 1
            var exponentNegative = false
            if let sign = peek(s), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                exponentNegative = sign == UInt8(ascii: "-")
                index += 1
            }
            guard let b = peek(s), JSONScanner.isDigit(b) else {
                throw JSONSyntaxError(offset: index, problem: "expected a digit in exponent")
            }
            while let b = peek(s), JSONScanner.isDigit(b) {
                if exponent < 100_000 { exponent = exponent * 10 + Int(b &- 0x30) }
                exponentDigits += 1
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        let range = start..<index
        let power = exponent + scale
        // Exact fast path (Clinger): the mantissa and the power of ten are exact doubles.
        if !dropped, mantissa <= (1 << 53), power >= -22, power <= 22 {
            var value = Double(mantissa)
            if power < 0 { value /= JSONScanner.powersOfTen[-power] } else { value *= JSONScanner.powersOfTen[power] }
            return (negative ? -value : value, range)
        }
        if mantissa == 0 && !dropped { return (negative ? -0.0 : 0.0, range) }
        return (JSONScanner.slowNumber(s, range), range)
    }

    /// Converts unusual numbers (many digits, big exponents) through the standard library.
    private static func slowNumber(_ s: Span<UInt8>, _ range: Range<Int>) -> Double {
        var text = ""
        text.reserveCapacity(range.count)
        for i in range { text.unicodeScalars.append(Unicode.Scalar(s[i])) }
        return Double(text) ?? .nan
    }

    /// Consumes the literal `word` (`true`, `false`, `null`).
    mutating func scanLiteral(_ word: String, _ s: Span<UInt8>) throws(JSONSyntaxError) {
        for byte in word.utf8 {
            guard index < s.count, s[index] == byte else {
                throw JSONSyntaxError(offset: index, problem: "unexpected character, expected a value")
            }
            index += 1
        }
    }

    /// Validates and skips an object; `index` is at `{`.
    mutating func skipObject(_ s: Span<UInt8>, depth: Int) throws(JSONSyntaxError) {
        guard depth <= JSONScanner.maxDepth else { throw JSONSyntaxError(offset: index, problem: "nesting too deep") }
        try expect(UInt8(ascii: "{"), s, "expected '{'")
        skipWhitespace(s)
        if peek(s) == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            skipWhitespace(s)
            _ = try scanString(s)
            skipWhitespace(s)
            try expect(UInt8(ascii: ":"), s, "expected ':'")
            skipWhitespace(s)
            _ = try scanValue(s, depth: depth)
            skipWhitespace(s)
            if peek(s) == UInt8(ascii: ",") {
                index += 1
                continue
            }
            try expect(UInt8(ascii: "}"), s, "expected ',' or '}'")
            return
        }
    }

    /// Validates and skips an array; `index` is at `[`.
    mutating func skipArray(_ s: Span<UInt8>, depth: Int) throws(JSONSyntaxError) {
        guard depth <= JSONScanner.maxDepth else { throw JSONSyntaxError(offset: index, problem: "nesting too deep") }
        try expect(UInt8(ascii: "["), s, "expected '['")
        skipWhitespace(s)
        if peek(s) == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            skipWhitespace(s)
            _ = try scanValue(s, depth: depth)
            skipWhitespace(s)
            if peek(s) == UInt8(ascii: ",") {
                index += 1
                continue
            }
            try expect(UInt8(ascii: "]"), s, "expected ',' or ']'")
            return
        }
    }

    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    static func hexValue(_ b: UInt8) -> UInt16? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt16(b - 0x30)
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt16(b - 0x61 + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt16(b - 0x41 + 10)
        default: nil
        }
    }

    static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
}
