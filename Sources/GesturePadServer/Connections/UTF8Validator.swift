/// Strict UTF-8 validation of a whole text message (RFC 3629: no overlong forms, no
/// surrogates, nothing above U+10FFFF, no truncated sequence at the end). lws does not check
/// the end of a message, so the server checks every complete message itself (close 1007).
public enum UTF8Validator {
    /// True when `bytes` is well-formed UTF-8.
    public static func isValid(_ bytes: Span<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
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
            guard index + length <= count else { return false }
            let second = bytes[index + 1]
            guard second >= low && second <= high else { return false }
            var offset = 2
            while offset < length {
                let next = bytes[index + offset]
                guard next >= 0x80 && next <= 0xBF else { return false }
                offset += 1
            }
            index += length
        }
        return true
    }
}
