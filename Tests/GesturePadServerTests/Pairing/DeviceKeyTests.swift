import Foundation
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
    /// (AccessToken.matches), with every paired device's and every forgotten key's, wherever
    /// the match is.
    @Test func lookupComparesEveryDigest() {
        let keys = (0..<4).map { _ in DeviceKey.random() }
        let gone = (0..<2).map { _ in DeviceKey.random() }
        let list = DeviceList(
            devices: keys.enumerated().map { index, key in
                PairedDevice(id: "d\(index)", name: "n\(index)", state: .paired, keySHA256: DeviceKey.digest(key), paired: "t")
            } + [PairedDevice(id: "w", name: "w", state: .waiting, paired: "t")],
            forgottenKeys: gone.map(DeviceKey.digest))
        let expected = keys.indices.map { KeyStanding.paired("d\($0)") } + [.forgotten, .forgotten, .unknown]
        for (key, standing) in zip(keys + gone + [DeviceKey.random()], expected) {
            var compared = 0
            let found = list.standing(ofKey: key) { a, b in
                compared += 1
                return DeviceKey.digestsMatch(a, b)
            }
            #expect(found == standing && compared == 6)
        }
        #expect(list.standing(ofKey: "not a key") == .unknown)
        #expect(DeviceKey.digestsMatch(DeviceKey.digest("a"), DeviceKey.digest("a")))
        #expect(!DeviceKey.digestsMatch(DeviceKey.digest("a"), DeviceKey.digest("b")))
    }

    /// A device removed (one, or all) leaves its key forgotten — a waiting one has none to
    /// leave —, at most `forgottenLimit` of them, the oldest dropped first.
    @Test func removedKeysAreRememberedForgotten() {
        let keys = (0..<3).map { _ in DeviceKey.random() }
        var list = DeviceList(
            devices: keys.enumerated().map { index, key in
                PairedDevice(id: "d\(index)", name: "n\(index)", state: .paired, keySHA256: DeviceKey.digest(key), paired: "t")
            } + [PairedDevice(id: "w", name: "w", state: .waiting, paired: "t")])
        list.remove("d1")
        list.remove("w")
        #expect(list.standing(ofKey: keys[1]) == .forgotten && list.forgottenKeys.count == 1)
        list.removeAll()
        #expect(keys.map(list.standing(ofKey:)) == [.forgotten, .forgotten, .forgotten] && list.devices.isEmpty)
        list.forgottenKeys = []
        let digests = (0...DeviceList.forgottenLimit).map { _ in DeviceKey.digest(DeviceKey.random()) }
        for digest in digests {
            list.devices = [PairedDevice(id: "x", name: "x", state: .paired, keySHA256: digest, paired: "t")]
            list.remove("x")
        }
        #expect(list.forgottenKeys == Array(digests.dropFirst()))
    }

    /// A file written before forgotten keys existed (no `forgottenKeys`) still reads.
    @Test func olderFileReads() {
        let text = #"{"devices":[{"id":"a","name":"A","paired":"t","state":"paired"}],"version":1}"#
        let list = DeviceList.decode(Data(text.utf8))
        #expect(list?.devices.map(\.id) == ["a"] && list?.forgottenKeys == [])
        #expect(list.map { DeviceList.decode($0.encoded()) == $0 } == true)
    }
}
