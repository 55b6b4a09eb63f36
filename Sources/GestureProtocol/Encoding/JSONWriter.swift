/// Appends JSON tokens to a byte buffer: escaped strings, integers, compact decimals.
///
/// Numbers: an integral value below 9e18 is written as an integer (`1000`); any other value
/// below 1e12 as a fixed decimal rounded to 6 places with trailing zeros trimmed (`0.998`,
/// `-12.5`); larger values use Swift's shortest round-trip form (`1e+20`). A non-finite value,
/// which JSON cannot hold, is written as `null`. No `String` is built on these paths but the
/// last.
///
/// Each token is written in one step into capacity reserved for it (`JSONSpanWriter`), not
/// byte by byte through `Array.append`.
public enum JSONWriter {
    /// Appends `value` as a JSON number (see the type's documentation).
    public static func appendNumber(_ value: Double, to out: inout [UInt8]) {
        out.append(addingCapacity: JSONSpanWriter.maxNumberBytes) { JSONSpanWriter.writeNumber(value, into: &$0) }
    }

    /// Appends an integer in decimal.
    public static func appendInteger(_ value: Int, to out: inout [UInt8]) {
        out.append(addingCapacity: JSONSpanWriter.maxIntegerBytes) { JSONSpanWriter.writeInteger(value, into: &$0) }
    }

    /// Appends `text` as a JSON string literal: quotes, `\"`, `\\`, the short escapes and
    /// `\u00XX` for other control characters; everything else as its UTF-8 bytes.
    public static func appendString(_ text: String, to out: inout [UInt8]) {
        let bytes = text.utf8.span
        out.append(addingCapacity: JSONSpanWriter.maxStringBytes(bytes.count)) {
            JSONSpanWriter.writeString(bytes, into: &$0)
        }
    }

    /// Appends `true` or `false`.
    public static func appendBool(_ value: Bool, to out: inout [UInt8]) {
        appendASCII(value ? "true" : "false", to: &out)
    }

    /// Appends text that needs no escaping (punctuation, known keys), byte for byte.
    @inline(__always)
    public static func appendASCII(_ text: String, to out: inout [UInt8]) {
        let bytes = text.utf8.span
        out.append(addingCapacity: bytes.count) { JSONSpanWriter.writeBytes(bytes, into: &$0) }
    }
}
