/// The page's `auth` message, the answer to the server's `challenge` (docs/protocol.md "Proof
/// handshake"), as the protocol's one scanner reads it — the same tokenizer as every other
/// message on the socket (`FrameDecoder`), and the fuzzer's. Only the wire's shape is checked
/// here; what the values mean (base64url, lengths, the credential) is `ProofAnswer`'s to judge.
///
///     {"type":"auth","with":"secret","nonce":"…","proof":"…"}
///     {"type":"auth","with":"secret","nonce":"…","proof":"…","kind":"observer"}
///     {"type":"auth","with":"device","device":"6d4054b3d55f","nonce":"…","proof":"…","model":"Pixel 8"}
public struct AuthMessage: Sendable, Hashable {
    public var with: String
    public var device: String?
    public var nonce: String
    public var proof: String
    public var model: String?
    /// The page's ephemeral X25519 public key (docs/protocol.md "Key exchange"), base64url.
    public var kx: String?
    /// The device's static X25519 public key, made on the phone (docs/protocol.md "Device key
    /// pairs"), base64url.
    public var dk: String?
    /// What a pairing pairs the device as (additive: "touchpad" or "observer"; absent: a
    /// touchpad). Only the shape is checked here: `ProofAnswer` judges the value.
    public var kind: String?

    public init(
        with: String, device: String? = nil, nonce: String, proof: String, model: String? = nil, kx: String? = nil,
        dk: String? = nil, kind: String? = nil
    ) {
        self.with = with
        self.device = device
        self.nonce = nonce
        self.proof = proof
        self.model = model
        self.kx = kx
        self.dk = dk
        self.kind = kind
    }

    /// The keys an `auth` message has; any other key is skipped.
    private enum Key: String, CaseIterable {
        case type, with, device, nonce, proof, model, kx, dk, kind
    }

    /// The keys that may be null (as if absent).
    private static let nullable: Set<Key> = [.device, .model, .kx, .dk, .kind]

    /// The `auth` message in `bytes`, or nil when it is none: not valid UTF-8, not one JSON
    /// object, `type` not "auth", `with` / `nonce` / `proof` not strings, or `device` / `model` /
    /// `kx` / `dk` / `kind` neither strings nor null. A repeated key keeps its last value (as `JSON.parse` does).
    public static func decode(_ bytes: [UInt8]) -> AuthMessage? {
        let s = bytes.span
        guard UTF8Validator.isValid(s) else { return nil }
        var strings: [Key: String] = [:]
        var scanner = JSONScanner()
        do throws(JSONSyntaxError) {
            scanner.skipWhitespace(s)
            try scanner.expect(UInt8(ascii: "{"), s, "expected '{'")
            scanner.skipWhitespace(s)
            var more = scanner.peek(s) != UInt8(ascii: "}")
            if !more { scanner.index += 1 }
            while more {
                scanner.skipWhitespace(s)
                let name = JSONStringDecoder.string(try scanner.scanString(s), in: s)
                scanner.skipWhitespace(s)
                try scanner.expect(UInt8(ascii: ":"), s, "expected ':'")
                scanner.skipWhitespace(s)
                let value = try scanner.scanValue(s, depth: 1)
                if let key = Key(rawValue: name) {
                    switch value {
                    case .string(let token): strings[key] = JSONStringDecoder.string(token, in: s)
                    case .null where nullable.contains(key): strings[key] = nil
                    case .number, .bool, .null, .object, .array: return nil
                    }
                }
                scanner.skipWhitespace(s)
                more = scanner.peek(s) == UInt8(ascii: ",")
                if more {
                    scanner.index += 1
                } else {
                    try scanner.expect(UInt8(ascii: "}"), s, "expected ',' or '}'")
                }
            }
            scanner.skipWhitespace(s)
            guard scanner.index == s.count else { return nil }
        } catch {
            return nil
        }
        guard strings[.type] == "auth", let with = strings[.with], let nonce = strings[.nonce], let proof = strings[.proof]
        else { return nil }
        return AuthMessage(
            with: with, device: strings[.device], nonce: nonce, proof: proof, model: strings[.model], kx: strings[.kx],
            dk: strings[.dk], kind: strings[.kind])
    }
}
