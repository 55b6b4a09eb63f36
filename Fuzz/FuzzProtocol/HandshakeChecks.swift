import FuzzSupport
import GestureProtocol

/// The proof handshake's answer, as the server reads the first message of a connection that
/// must prove (docs/protocol.md "Proof handshake"), tried on every frame:
/// - an `auth` message the scanner takes (`AuthMessage`), written again with the protocol's own
///   string writer (`JSONWriter`, as the server writes every string), reads as the same message:
///   a scanner and a writer that disagree on an escape (a surrogate pair, a control character,
///   a `\/`) would let a device id or a nonce mean one thing to the proof and another in
///   `devices.json`;
/// - `ProofAnswer.parse` only reads: it refuses as malformed or gives an answer whose nonce,
///   proof and keys have their lengths, from a message the scanner took;
/// - the frame's bytes read as base64url digits (`Base64URL`, which opens every sealed frame)
///   give three bytes for four digits, and write back to digits that read as the same bytes.
enum HandshakeChecks {
    static func check(_ frame: [UInt8]) {
        let auth = AuthMessage.decode(frame)
        if let auth { checkRoundTrip(auth) }
        switch ProofAnswer.parse(frame) {
        case .success(let answer):
            invariant(auth != nil, "ProofAnswer took a message AuthMessage refused")
            checkLengths(answer)
        case .failure(.malformed):
            break
        case .failure(let refusal):
            invariant(false, "ProofAnswer.parse judged the proof (\(refusal)): that is the server's")
        }
        var bytes: [UInt8] = []
        if Base64URL.append(decoding: frame, to: &bytes) {
            invariant(bytes.count == frame.count * 3 / 4, "\(frame.count) digits gave \(bytes.count) bytes")
            invariant(Base64URL.decode(Base64URL.encode(bytes)) == bytes, "base64url did not round-trip \(bytes)")
        }
    }

    private static func checkRoundTrip(_ auth: AuthMessage) {
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

    private static func checkLengths(_ answer: ProofAnswer) {
        invariant(answer.nonce.count == ProofAnswer.nonceBytes && answer.proof.count == 32, "nonce or proof length")
        invariant(answer.exchange.map { $0.count == 32 } ?? true, "kx length")
        invariant(answer.devicePublicKey.map { $0.count == 32 && answer.exchange != nil } ?? true, "dk without kx")
        invariant((answer.model?.count ?? 0) <= 60, "a model over 60 characters")
        switch answer.credential {
        case .device(let id), .ticket(let id): invariant(id.utf8.count <= 64, "a device id over 64 bytes")
        case .secret, .desktop: break
        }
    }
}
