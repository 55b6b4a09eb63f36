/// Checks that a frame is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates,
/// nothing above U+10FFFF), as WebSocket text frames must be (RFC 6455 §8.1).
enum UTF8Validator {
    /// Whether every byte of `s` belongs to a well-formed UTF-8 sequence.
    static func isValid(_ s: Span<UInt8>) -> Bool {
        var i = 0
        let n = s.count
        while i < n {
            // ASCII, the usual case, eight bytes a step.
            while i &+ 8 <= n {
                let any = s[i] | s[i &+ 1] | s[i &+ 2] | s[i &+ 3] | s[i &+ 4] | s[i &+ 5] | s[i &+ 6] | s[i &+ 7]
                guard any < 0x80 else { break }
                i &+= 8
            }
            guard i < n else { break }
            let lead = s[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80  // allowed range of the second byte
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return false
            }
            guard i + length <= n else { return false }
            let second = s[i + 1]
            guard second >= low, second <= high else { return false }
            var k = i + 2
            while k < i + length {
                guard s[k] & 0xC0 == 0x80 else { return false }
                k += 1
            }
            i += length
        }
        return true
    }
}
