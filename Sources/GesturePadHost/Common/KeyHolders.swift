/// How many holders each key code has on a backend that presses codes (x11 keycodes, evdev
/// codes): a held key, and the Shift a character needs while another key holds Shift too,
/// share one press. A code goes down when its first holder takes it and up when its last lets
/// go. Codes out of range are ignored.
struct KeyHolders: Sendable {
    private var counts: [Int]

    /// Codes 0 ..< `codes`.
    init(codes: Int) {
        counts = [Int](repeating: 0, count: codes)
    }

    /// One more holder of `code`; true when it goes down now (it was free).
    mutating func take(_ code: Int) -> Bool {
        guard counts.indices.contains(code) else { return false }
        counts[code] += 1
        return counts[code] == 1
    }

    /// One holder less of `code`; true when it goes up now (that was the last).
    mutating func letGo(_ code: Int) -> Bool {
        guard counts.indices.contains(code), counts[code] > 0 else { return false }
        counts[code] -= 1
        return counts[code] == 0
    }

    /// Whether `code` is down.
    func isDown(_ code: Int) -> Bool { counts.indices.contains(code) && counts[code] > 0 }

    /// Every code still down, lowest first, now free.
    mutating func releaseAll() -> [Int] {
        let down = counts.indices.filter { counts[$0] > 0 }
        for code in down { counts[code] = 0 }
        return down
    }
}
