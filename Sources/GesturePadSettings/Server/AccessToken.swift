/// The access token of `/ws`: made at random unless the user gives one, checked in constant
/// time, restricted to characters that survive a URL unescaped.
public enum AccessToken {
    /// A fresh random 128-bit token as 32 lowercase hex digits (the system CSPRNG).
    public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// A 128-bit token from `generator`, as 32 lowercase hex digits.
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for _ in 0..<2 {
            let word = generator.next() as UInt64
            for shift in stride(from: 60, through: 0, by: -4) {
                bytes.append(digits[Int((word >> UInt64(shift)) & 0xF)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Why a user-given token is refused, or `nil` when it is usable: 1…256 characters from
    /// the URL-unreserved set `A–Z a–z 0–9 - . _ ~` (so it needs no escaping in a link).
    public static func problem(with token: String) -> String? {
        if token.isEmpty { return "the token is empty" }
        if token.utf8.count > 256 { return "the token is longer than 256 characters" }
        for byte in token.utf8 where !isUnreserved(byte) {
            return "the token may only contain letters, digits, '-', '.', '_' and '~'"
        }
        return nil
    }

    /// Compares two tokens in time that depends only on their lengths.
    public static func matches(_ given: String, expected: String) -> Bool {
        let a = Array(given.utf8)
        let b = Array(expected.utf8)
        var difference: UInt8 = a.count == b.count ? 0 : 1
        for index in 0..<b.count {
            difference |= (index < a.count ? a[index] : 0) ^ b[index]
        }
        return difference == 0
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
