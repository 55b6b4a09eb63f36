import Glibc

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

    /// The strength a pairing secret needs, in bits: what a random one has, and what no one
    /// guesses within the tries the server allows (issue 40).
    public static let minimumBits = 128

    /// Why a user-given token is refused, or `nil` when it is usable: 1…256 characters from
    /// the URL-unreserved set `A–Z a–z 0–9 - . _ ~` (so it needs no escaping in a link), as
    /// strong as `minimumBits` by `estimatedBits`.
    public static func problem(with token: String) -> String? {
        if token.isEmpty { return "the token is empty" }
        if token.utf8.count > 256 { return "the token is longer than 256 characters" }
        for byte in token.utf8 where !isUnreserved(byte) {
            return "the token may only contain letters, digits, '-', '.', '_' and '~'"
        }
        let bits = estimatedBits(token)
        guard bits >= Double(minimumBits) else {
            return """
                the token is too weak to pair phones with (about \(Int(bits)) bits, \(minimumBits) needed: \
                32 hex digits, or 22 letters and digits of both cases); leave it out and a random one is made
                """
        }
        return nil
    }

    /// An upper bound of the token's strength in bits, as if each character were drawn at random
    /// from the classes it uses: hex digits alone count 16 symbols, else lowercase 26, uppercase
    /// 26, digits 10 and `- . _ ~` 4, each class counted when present. A chosen phrase is weaker
    /// than this; a token below it is certainly too weak.
    public static func estimatedBits(_ token: String) -> Double {
        let bytes = Array(token.utf8)
        guard !bytes.isEmpty else { return 0 }
        let isHex = bytes.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
        }
        var symbols = 0
        if isHex {
            symbols = 16
        } else {
            let classes: [(ClosedRange<UInt8>?, Int)] = [
                (UInt8(ascii: "a")...UInt8(ascii: "z"), 26), (UInt8(ascii: "A")...UInt8(ascii: "Z"), 26),
                (UInt8(ascii: "0")...UInt8(ascii: "9"), 10), (nil, 4),
            ]
            let marks: [UInt8] = [UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~")]
            for (range, size) in classes {
                let present = bytes.contains { byte in range.map { $0.contains(byte) } ?? marks.contains(byte) }
                if present { symbols += size }
            }
        }
        return Double(bytes.count) * log2(Double(max(symbols, 2)))
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
