import Crypto
import FoundationEssentials
import GesturePadSettings
import GestureProtocol

/// A paired device's key: 256 random bits, written as 43 base64url characters (no padding),
/// which need no escaping in the `/ws?token=` query. The server keeps only its SHA-256 (a
/// stolen `devices.json` opens nothing) and compares digests in constant time. A plain hash
/// is enough: the key is random, not a password, so there is nothing to guess from it.
public enum DeviceKey {
    /// Characters of a key.
    public static let length = 43

    /// A fresh key from the system CSPRNG.
    public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// A key from `generator` (tests pass a seeded one).
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for _ in 0..<4 {
            let word = generator.next() as UInt64
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        return Base64URL.encode(bytes)
    }

    /// Whether `text` has the shape of a key (43 base64url characters); anything else is
    /// refused before it is hashed.
    public static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == length && text.utf8.allSatisfy(Base64URL.isDigit)
    }

    /// The SHA-256 of a key, as 64 lowercase hex digits: what `devices.json` keeps.
    public static func digest(_ key: String) -> String {
        SHA256.hash(data: Data(key.utf8)).map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
        }.joined()
    }

    /// Compares two digests in time that depends only on their lengths.
    public static func digestsMatch(_ a: String, _ b: String) -> Bool {
        AccessToken.matches(a, expected: b)
    }

    /// A short random id for a new device (12 hex digits; not secret).
    public static func randomID() -> String {
        var generator = SystemRandomNumberGenerator()
        return randomID(using: &generator)
    }

    /// A short id from `generator`.
    public static func randomID<G: RandomNumberGenerator>(using generator: inout G) -> String {
        let value = (generator.next() as UInt64) & 0xFFFF_FFFF_FFFF
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 12 - hex.count) + hex
    }
}
