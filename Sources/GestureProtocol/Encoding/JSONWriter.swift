/// Appends JSON tokens to a byte buffer: escaped strings, integers, compact decimals.
///
/// Numbers: an integral value below 9e18 is written as an integer (`1000`); any other value
/// below 1e12 as a fixed decimal rounded to 6 places with trailing zeros trimmed (`0.998`,
/// `-12.5`); larger values use Swift's shortest round-trip form (`1e+20`). A non-finite value,
/// which JSON cannot hold, is written as `null`. No `String` is built on these paths.
public enum JSONWriter {
    /// Appends `value` as a JSON number (see the type's documentation).
    public static func appendNumber(_ value: Double, to out: inout [UInt8]) {
        guard value.isFinite else {
            appendASCII("null", to: &out)
            return
        }
        let magnitude = abs(value)
        if magnitude < 9e18, value.rounded(.towardZero) == value {
            appendInteger(Int(value), to: &out)
            return
        }
        guard magnitude < 1e12 else {
            appendASCII(value.description, to: &out)
            return
        }
        let scaled = Int((magnitude * 1_000_000).rounded())
        guard scaled != 0 else {
            out.append(UInt8(ascii: "0"))
            return
        }
        if value < 0 { out.append(UInt8(ascii: "-")) }
        appendInteger(scaled / 1_000_000, to: &out)
        var fraction = scaled % 1_000_000
        guard fraction != 0 else { return }
        out.append(UInt8(ascii: "."))
        var places = 6
        while fraction % 10 == 0 {
            fraction /= 10
            places -= 1
        }
        // `places` digits, with leading zeros.
        var divisor = 1
        for _ in 1..<places { divisor *= 10 }
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
            divisor /= 10
        }
    }

    /// Appends an integer in decimal.
    public static func appendInteger(_ value: Int, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        if magnitude < 10 {
            out.append(UInt8(ascii: "0") + UInt8(magnitude))
            return
        }
        var divisor: UInt = 1
        while magnitude / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(magnitude / divisor))
            magnitude %= divisor
            divisor /= 10
        }
    }

    /// Appends `text` as a JSON string literal: quotes, `\"`, `\\`, the short escapes and
    /// `\u00XX` for other control characters; everything else as its UTF-8 bytes.
    public static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(UInt8(ascii: "\\")); out.append(byte)
            case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\")); out.append(byte)
            case 0x0A: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
            case 0x08: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "b"))
            case 0x0C: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "f"))
            case 0x00..<0x20:
                appendASCII("\\u00", to: &out)
                out.append(hexDigit(byte >> 4))
                out.append(hexDigit(byte & 0xF))
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Appends `true` or `false`.
    public static func appendBool(_ value: Bool, to out: inout [UInt8]) {
        appendASCII(value ? "true" : "false", to: &out)
    }

    /// Appends text that needs no escaping (punctuation, known keys), byte for byte.
    @inline(__always)
    public static func appendASCII(_ text: String, to out: inout [UInt8]) {
        out.append(contentsOf: text.utf8)
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
