import GestureEngine

/// The one place that turns a `GestureEvent` into JSON text for the sinks: the protocol's
/// `gesture` message (PROTOCOL.md), optionally with the wall-clock `time` the server saw it.
///
/// The protocol layer has its own byte encoders; when they land this can delegate to them.
/// Output is UTF-8 bytes appended to a reusable buffer (no Foundation, no `JSONSerialization`).
public enum GestureJSON {
    /// Appends `{"type":"gesture","session":…,"gesture":…,"phase":…,"t":…,"x":…,"y":…,
    /// "pointers":…,<own fields>[,"time":"…"]}` (no newline).
    public static func append(
        _ event: GestureEvent, session: String, time: WallTime?, into out: inout [UInt8]
    ) {
        out.append(contentsOf: #"{"type":"gesture","session":"#.utf8)
        appendString(session, into: &out)
        out.append(contentsOf: #","gesture":""#.utf8)
        out.append(contentsOf: event.gesture.name.utf8)
        out.append(contentsOf: #"","phase":""#.utf8)
        out.append(contentsOf: event.phase.name.utf8)
        out.append(contentsOf: #"","t":"#.utf8)
        appendNumber(event.t, into: &out)
        out.append(contentsOf: #","x":"#.utf8)
        appendNumber(event.x, into: &out)
        out.append(contentsOf: #","y":"#.utf8)
        appendNumber(event.y, into: &out)
        out.append(contentsOf: #","pointers":"#.utf8)
        out.append(contentsOf: String(event.pointers).utf8)
        event.forEachField { name, value in
            out.append(UInt8(ascii: ","))
            out.append(UInt8(ascii: "\""))
            name.withUTF8Buffer { out.append(contentsOf: $0) }
            out.append(contentsOf: #"":"#.utf8)
            appendValue(value, into: &out)
        }
        if let time {
            out.append(contentsOf: #","time":""#.utf8)
            time.appendISO8601(into: &out)
            out.append(UInt8(ascii: "\""))
        }
        out.append(UInt8(ascii: "}"))
    }

    /// The message as a `String` (tests, hooks' stdin).
    public static func string(_ event: GestureEvent, session: String, time: WallTime? = nil) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        append(event, session: session, time: time, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// A field value as JSON.
    static func appendValue(_ value: GestureFieldValue, into out: inout [UInt8]) {
        switch value {
        case .number(let d): appendNumber(d, into: &out)
        case .integer(let i): out.append(contentsOf: String(i).utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .name(let s): appendString(s, into: &out)
        }
    }

    /// A finite number as JSON: integral values without a fraction, others in Swift's shortest
    /// round-tripping form. Non-finite values (never produced by the engine) become `null`.
    public static func appendNumber(_ value: Double, into out: inout [UInt8]) {
        out.append(contentsOf: numberText(value).utf8)
    }

    /// The text `appendNumber` writes.
    public static func numberText(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return String(value)
    }

    /// A JSON string literal: quotes, backslashes and every control character escaped, so no
    /// client-chosen text can break out of its field.
    public static func appendString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "\n"): out.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): out.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): out.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20, 0x7F:
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hexDigit(byte >> 4))
                out.append(hexDigit(byte & 0xF))
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ v: UInt8) -> UInt8 {
        v < 10 ? UInt8(ascii: "0") + v : UInt8(ascii: "a") + v - 10
    }
}
