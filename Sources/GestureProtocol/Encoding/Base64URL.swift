/// Unpadded base64url (RFC 4648 §5), the protocol's way of carrying bytes in JSON strings:
/// the proof handshake's nonces, proofs and keys, and every sealed frame's box (docs/protocol.md).
/// Its digits need no escaping in JSON or in a `?token=` query.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// `bytes` as base64url digits, without padding.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        var digits: [UInt8] = []
        digits.reserveCapacity((bytes.count * 4 + 2) / 3)
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in bytes {
            accumulator = (accumulator << 8) | UInt32(byte)
            bits += 8
            while bits >= 6 {
                bits -= 6
                digits.append(alphabet[Int((accumulator >> UInt32(bits)) & 0x3F)])
            }
            accumulator &= (1 << UInt32(bits)) - 1
        }
        if bits > 0 { digits.append(alphabet[Int((accumulator << UInt32(6 - bits)) & 0x3F)]) }
        return String(decoding: digits, as: UTF8.self)
    }

    /// The bytes of base64url `text` (no padding); nil when it is not base64url.
    public static func decode(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        return append(decoding: text.utf8, to: &out) ? out : nil
    }

    /// Appends the bytes of unpadded base64url `digits` to `out`, with no copy of the text (a
    /// sealed frame is read this way, every frame of a proven connection); false, and `out` as
    /// it was, when `digits` is not that: another alphabet, `=`, or a length of 1 mod 4.
    public static func append(decoding digits: some Collection<UInt8>, to out: inout [UInt8]) -> Bool {
        let start = out.count
        guard digits.count % 4 != 1 else { return false }
        var accumulator: UInt32 = 0
        var bits = 0
        for digit in digits {
            guard let value = sextet(digit) else {
                out.removeSubrange(start...)
                return false
            }
            accumulator = ((accumulator << 6) | UInt32(value)) & 0xFFFF
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return true
    }

    /// Whether `byte` is one of the 64 digits.
    public static func isDigit(_ byte: UInt8) -> Bool {
        sextet(byte) != nil
    }

    private static func sextet(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): digit - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): digit - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
