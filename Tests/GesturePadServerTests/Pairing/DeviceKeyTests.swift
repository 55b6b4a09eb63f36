import Testing

@testable import GesturePadServer

/// A generator that counts, so keys and ids are reproducible.
struct CountingGenerator: RandomNumberGenerator {
    var state: UInt64 = 0
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return state
    }
}

@Suite struct DeviceKeyTests {
    /// Keys are 256 random bits as 43 base64url characters, different each time, well formed.
    @Test func keysAre256BitBase64URL() {
        let a = DeviceKey.random(), b = DeviceKey.random()
        #expect(a.count == 43 && b.count == 43 && a != b)
        #expect(DeviceKey.isWellFormed(a) && DeviceKey.isWellFormed(b))
        #expect(a.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    }

    /// Anything but 43 base64url characters is no key.
    @Test func malformedKeys() {
        #expect(!DeviceKey.isWellFormed(""))
        #expect(!DeviceKey.isWellFormed(String(repeating: "a", count: 42)))
        #expect(!DeviceKey.isWellFormed(String(repeating: "a", count: 44)))
        #expect(!DeviceKey.isWellFormed(String(repeating: "a", count: 42) + "="))
        #expect(!DeviceKey.isWellFormed(String(repeating: "a", count: 42) + "é"))
    }

    /// The stored digest is SHA-256 in hex (a known vector), never the key.
    @Test func digestIsSHA256() {
        #expect(DeviceKey.digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        var generator = CountingGenerator()
        let key = DeviceKey.random(using: &generator)
        #expect(DeviceKey.digest(key).count == 64 && !DeviceKey.digest(key).contains(key))
    }

    /// Ids are 12 hex digits.
    @Test func idsAreShortHex() {
        var generator = CountingGenerator()
        let id = DeviceKey.randomID(using: &generator)
        #expect(id.count == 12 && id.allSatisfy(\.isHexDigit))
    }

    /// A key is looked up without an early exit: its digest is compared, in constant time
    /// (AccessToken.matches), with every paired device's, wherever the match is.
    @Test func lookupComparesEveryDigest() {
        let keys = (0..<4).map { _ in DeviceKey.random() }
        let list = DeviceList(
            devices: keys.enumerated().map { index, key in
                PairedDevice(id: "d\(index)", name: "n\(index)", state: .paired, keySHA256: DeviceKey.digest(key), paired: "t")
            } + [PairedDevice(id: "w", name: "w", state: .waiting, paired: "t")])
        for (index, key) in keys.enumerated() {
            var compared = 0
            let found = list.pairedID(forKey: key) { a, b in
                compared += 1
                return DeviceKey.digestsMatch(a, b)
            }
            #expect(found == "d\(index)" && compared == 4)
        }
        #expect(list.pairedID(forKey: DeviceKey.random()) == nil)
        #expect(DeviceKey.digestsMatch(DeviceKey.digest("a"), DeviceKey.digest("a")))
        #expect(!DeviceKey.digestsMatch(DeviceKey.digest("a"), DeviceKey.digest("b")))
    }
}
