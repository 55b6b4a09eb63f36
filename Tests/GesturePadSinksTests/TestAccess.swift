import GestureEngine

@testable import GesturePadSinks

// What the tests read that the sinks themselves never need.

extension GestureJSON {
    /// The message as a `String`.
    static func string(_ event: GestureEvent, session: String, time: WallTime? = nil) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        append(event, session: session, time: time, into: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
