import Testing

@testable import GestureProtocol

/// `Base64URL`: the protocol's bytes in JSON strings (nonces, proofs, keys, sealed boxes).
@Suite struct Base64URLTests {
    /// RFC 4648's test vectors (§10), unpadded, and the two digits only base64url has.
    @Test func knownVectors() {
        let vectors = ["": "", "f": "Zg", "fo": "Zm8", "foo": "Zm9v", "foob": "Zm9vYg", "fooba": "Zm9vYmE", "foobar": "Zm9vYmFy"]
        for (plain, digits) in vectors {
            #expect(Base64URL.encode(Array(plain.utf8)) == digits, "\(plain)")
            #expect(Base64URL.decode(digits) == Array(plain.utf8), "\(digits)")
        }
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
    }

    /// Every length up to 70 and every byte value round-trip.
    @Test func roundTrips() {
        for length in 0..<70 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ length &* 31) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes, "\(length) bytes")
        }
        let all = (0...255).map { UInt8($0) }
        #expect(Base64URL.decode(Base64URL.encode(all)) == all)
        #expect(all.filter(Base64URL.isDigit).count == 64)
    }

    /// Read straight from bytes: the other alphabet, `=` and a length of 1 mod 4 are refused,
    /// leaving the buffer as it was.
    @Test func refusesWhatIsNotBase64URL() {
        var out: [UInt8] = [7]
        for bad in ["ab+c", "ab/c", "abc=", "a", "abcde", "ab c"] {
            #expect(!Base64URL.append(decoding: Array(bad.utf8), to: &out), "\(bad)")
        }
        #expect(out == [7])
        #expect(Base64URL.append(decoding: Array("Zm9v".utf8), to: &out) && out == [7] + Array("foo".utf8))
    }
}
