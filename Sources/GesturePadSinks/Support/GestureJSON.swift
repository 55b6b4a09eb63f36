import GestureEngine
import GestureProtocol

/// The one place that turns a `GestureEvent` into JSON text for the sinks: the protocol's
/// `gesture` message, byte for byte as the page receives it (the protocol layer's
/// `MessageEncoder`), optionally followed by the wall-clock `time` the server saw it.
public enum GestureJSON {
    /// Appends `{"type":"gesture","session":…,"gesture":…,"phase":…,"t":…,"x":…,"y":…,
    /// "pointers":…,<own fields>[,"time":"…"]}` (no newline).
    public static func append(
        _ event: GestureEvent, session: String, time: WallTime?, into out: inout [UInt8]
    ) {
        MessageEncoder.appendGesture(event, sessionLiteral: MessageEncoder.sessionLiteral(session), to: &out)
        guard let time else { return }
        // The message ends with its closing brace: reopen it for the added field.
        if out.last == UInt8(ascii: "}") { out.removeLast() }
        out.append(contentsOf: #","time":""#.utf8)
        time.appendISO8601(into: &out)
        out.append(contentsOf: #""}"#.utf8)
    }

    /// The message as a `String` (tests, hooks' stdin).
    public static func string(_ event: GestureEvent, session: String, time: WallTime? = nil) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        append(event, session: session, time: time, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// A number as the protocol writes it (`JSONWriter.appendNumber`: integral values without
    /// a fraction, others rounded to 6 decimals), so `{ddx}` in a hook's argv reads exactly
    /// like `"ddx"` on its stdin.
    public static func numberText(_ value: Double) -> String {
        var out: [UInt8] = []
        JSONWriter.appendNumber(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
