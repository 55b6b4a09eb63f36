import GestureEngine
import GestureProtocol

extension WallTime: GestureLogTime {}

/// The sinks' names for the protocol's encoder (`MessageEncoder`): a gesture log line is the
/// `gesture` message byte for byte as the page receives it, with the wall-clock `time` the
/// server saw it as its last field.
public enum GestureJSON {
    /// Appends `{"type":"gesture","session":…,"gesture":…,"phase":…,"t":…,"x":…,"y":…,
    /// "pointers":…,<own fields>[,"time":"…"]}` (no newline).
    public static func append(
        _ event: GestureEvent, session: String, time: WallTime?, into out: inout [UInt8]
    ) {
        MessageEncoder.appendGesture(event, session: session, time: time, to: &out)
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
