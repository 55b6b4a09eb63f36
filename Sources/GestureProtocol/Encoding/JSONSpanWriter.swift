/// The token writers behind `JSONWriter` and `MessageEncoder`, on an `OutputSpan`: the caller
/// reserves room for a whole token (or several, `Array.append(addingCapacity:initializingWith:)`)
/// and each byte is then a bounds-checked store, not an `Array.append` with its uniqueness and
/// capacity checks. Number formats: see `JSONWriter`.
enum JSONSpanWriter {
    /// The longest integer: `-9223372036854775808`.
    static let maxIntegerBytes = 20
    /// The longest number (`null`, an integer, a fixed decimal below 1e12 or a shortest
    /// round-trip form such as `-2.2250738585072014e-308`).
    static let maxNumberBytes = 32

    /// The longest JSON string literal of `count` UTF-8 bytes (`\u00XX` per byte, quotes).
    @inline(__always)
    static func maxStringBytes(_ count: Int) -> Int { 2 + 6 * count }

    /// Copies `bytes` (already valid JSON text).
    @inline(__always)
    static func writeBytes(_ bytes: Span<UInt8>, into out: inout OutputSpan<UInt8>) {
        for i in bytes.indices { out.append(bytes[i]) }
    }

    /// Writes `value` as a JSON number (see `JSONWriter`).
    static func writeNumber(_ value: Double, into out: inout OutputSpan<UInt8>) {
        guard value.isFinite else {
            out.append(UInt8(ascii: "n"))
            out.append(UInt8(ascii: "u"))
            out.append(UInt8(ascii: "l"))
            out.append(UInt8(ascii: "l"))
            return
        }
        let magnitude = abs(value)
        if magnitude < 9e18 {
            // `Int(_:)` truncates; equal back means integral.
            let whole = Int(value)
            if Double(whole) == value {
                writeInteger(whole, into: &out)
                return
            }
        }
        guard magnitude < 1e12 else {
            let text = value.description
            writeBytes(text.utf8.span, into: &out)
            return
        }
        let scaled = roundedHalfAway(magnitude * 1_000_000)
        guard scaled != 0 else {
            out.append(UInt8(ascii: "0"))
            return
        }
        if value < 0 { out.append(UInt8(ascii: "-")) }
        writeDigits(scaled / 1_000_000, into: &out)
        let fraction = scaled % 1_000_000
        guard fraction != 0 else { return }
        writeFraction(fraction, into: &out)
    }

    /// `x.rounded()` (half away from zero) for 0 ≤ x < 1e18, without the C library call:
    /// `x - trunc(x)` is exact, and any x ≥ 2^52 is integral already.
    @inline(__always)
    static func roundedHalfAway(_ x: Double) -> UInt {
        let whole = UInt(x)
        return x - Double(whole) >= 0.5 ? whole &+ 1 : whole
    }

    /// Writes `.` and the six digits of `fraction` (1…999,999 millionths) without their
    /// trailing zeros: the digits are gathered into one word, tenths in the lowest byte, so
    /// the trailing zeros are its leading zero bytes.
    @inline(__always)
    private static func writeFraction(_ fraction: UInt, into out: inout OutputSpan<UInt8>) {
        var rest = fraction
        var packed: UInt64 = 0
        for _ in 0..<6 {
            packed = packed << 8 | UInt64(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
        // 2 bytes above the six digits are always zero; a digit byte is at most 9.
        let places = 6 - (packed.leadingZeroBitCount - 16) / 8
        out.append(UInt8(ascii: "."))
        for _ in 0..<places {
            out.append(UInt8(ascii: "0") | UInt8(truncatingIfNeeded: packed))
            packed >>= 8
        }
    }

    /// Writes an integer in decimal.
    @inline(__always)
    static func writeInteger(_ value: Int, into out: inout OutputSpan<UInt8>) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        writeDigits(value.magnitude, into: &out)
    }

    /// Writes the decimal digits of `value`: up to 8 gathered last digit first into one word
    /// (divisions by the constant 10 only), then stored in order.
    @inline(__always)
    static func writeDigits(_ value: UInt, into out: inout OutputSpan<UInt8>) {
        guard value < 100_000_000 else {
            writeLongDigits(value, into: &out)
            return
        }
        var rest = value
        var packed: UInt64 = 0
        var count = 0
        repeat {
            packed = packed << 8 | UInt64(truncatingIfNeeded: rest % 10)
            rest /= 10
            count &+= 1
        } while rest != 0
        for _ in 0..<count {
            out.append(UInt8(ascii: "0") | UInt8(truncatingIfNeeded: packed))
            packed >>= 8
        }
    }

    /// The digits of `value` ≥ 10⁸, in groups of eight.
    private static func writeLongDigits(_ value: UInt, into out: inout OutputSpan<UInt8>) {
        let high = value / 100_000_000
        if high < 100_000_000 {
            writeDigits(high, into: &out)
        } else {
            writeDigits(high / 100_000_000, into: &out)
            writeDigits(high % 100_000_000, count: 8, into: &out)
        }
        writeDigits(value % 100_000_000, count: 8, into: &out)
    }

    /// Writes the last `count` (at most 8) decimal digits of `value`, with leading zeros,
    /// gathered like `writeDigits(_:into:)`.
    private static func writeDigits(_ value: UInt, count: Int, into out: inout OutputSpan<UInt8>) {
        var rest = value
        var packed: UInt64 = 0
        for _ in 0..<count {
            packed = packed << 8 | UInt64(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
        for _ in 0..<count {
            out.append(UInt8(ascii: "0") | UInt8(truncatingIfNeeded: packed))
            packed >>= 8
        }
    }

    /// Writes `bytes` (UTF-8) as a JSON string literal: quotes, `\"`, `\\`, the short escapes
    /// and `\u00XX` for other control characters; everything else as is.
    static func writeString(_ bytes: Span<UInt8>, into out: inout OutputSpan<UInt8>) {
        out.append(UInt8(ascii: "\""))
        for i in bytes.indices {
            let byte = bytes[i]
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): escape(byte, &out)
            case 0x0A: escape(UInt8(ascii: "n"), &out)
            case 0x0D: escape(UInt8(ascii: "r"), &out)
            case 0x09: escape(UInt8(ascii: "t"), &out)
            case 0x08: escape(UInt8(ascii: "b"), &out)
            case 0x0C: escape(UInt8(ascii: "f"), &out)
            case 0x00..<0x20:
                escape(UInt8(ascii: "u"), &out)
                out.append(UInt8(ascii: "0"))
                out.append(UInt8(ascii: "0"))
                out.append(hexDigit(byte >> 4))
                out.append(hexDigit(byte & 0xF))
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Writes `true` or `false`.
    static func writeBool(_ value: Bool, into out: inout OutputSpan<UInt8>) {
        if value {
            out.append(UInt8(ascii: "t"))
            out.append(UInt8(ascii: "r"))
            out.append(UInt8(ascii: "u"))
        } else {
            out.append(UInt8(ascii: "f"))
            out.append(UInt8(ascii: "a"))
            out.append(UInt8(ascii: "l"))
            out.append(UInt8(ascii: "s"))
        }
        out.append(UInt8(ascii: "e"))
    }

    @inline(__always)
    private static func escape(_ letter: UInt8, _ out: inout OutputSpan<UInt8>) {
        out.append(UInt8(ascii: "\\"))
        out.append(letter)
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
