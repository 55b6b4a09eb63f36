import FuzzSupport
import GestureProtocol

/// The proof handshake's answer read back: an `auth` message the scanner took, written again
/// with the protocol's own string writer (`JSONWriter`, as the server writes every string), must
/// read as the same message. A scanner and a writer that disagree on an escape (a surrogate
/// pair, a control character, a `\/`) would let a page's device id or nonce mean one thing
/// to the proof and another in `devices.json`.
enum AuthRoundTrip {
    static func check(_ auth: AuthMessage) {
        var out: [UInt8] = []
        JSONWriter.appendASCII("{\"type\":\"auth\"", to: &out)
        let fields: [(String, String?)] = [
            ("with", auth.with), ("nonce", auth.nonce), ("proof", auth.proof), ("device", auth.device),
            ("model", auth.model), ("kx", auth.kx), ("dk", auth.dk), ("kind", auth.kind),
        ]
        for (key, value) in fields {
            guard let value else { continue }
            JSONWriter.appendASCII(",\"\(key)\":", to: &out)
            JSONWriter.appendString(value, to: &out)
        }
        out.append(UInt8(ascii: "}"))
        let again = AuthMessage.decode(out)
        invariant(again == auth, "auth written back reads as \(String(describing: again)), not \(auth)")
    }
}
