/// Reads the two fields the load generator needs out of a server's gesture message, by byte
/// scanning (no JSON parse on the measuring path): its `t` and whether its phase is `ended`.
enum ReplyScan {
    private static let tKey: [UInt8] = Array(#","t":"#.utf8)
    private static let phaseKey: [UInt8] = Array(#","phase":""#.utf8)

    /// Whether the message's `phase` is `ended` (the event that completes a gesture; discrete
    /// gestures only have that one).
    static func isEnded(_ bytes: [UInt8]) -> Bool {
        guard let phase = find(phaseKey, in: bytes), phase < bytes.count else { return false }
        return bytes[phase] == UInt8(ascii: "e")
    }

    /// The index just after the first occurrence of `key` in `bytes`.
    static func find(_ key: [UInt8], in bytes: [UInt8]) -> Int? {
        var i = 0
        let end = bytes.count - key.count
        search: while i <= end {
            for k in 0..<key.count where bytes[i + k] != key[k] {
                i += 1
                continue search
            }
            return i + key.count
        }
        return nil
    }

    /// `"t":` of a gesture message as µs, when it has at most three decimals.
    static func gestureT(_ bytes: [UInt8]) -> Int64? {
        guard var i = find(tKey, in: bytes) else { return nil }
        var whole: Int64 = 0
        var digits = 0
        while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
            whole = whole * 10 + Int64(bytes[i] - 0x30)
            i += 1
            digits += 1
        }
        guard digits > 0 else { return nil }
        var fraction: Int64 = 0
        var scale: Int64 = 100
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                guard scale > 0 else { return nil }
                fraction += Int64(bytes[i] - 0x30) * scale
                scale /= 10
                i += 1
            }
        }
        return whole * 1000 + fraction
    }
}
