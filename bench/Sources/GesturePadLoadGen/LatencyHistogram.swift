/// A fixed-memory latency histogram (microseconds): 1 µs buckets below 2 ms, 10 µs below
/// 20 ms, 1 ms below 20 s; anything longer lands in the last bucket.
struct LatencyHistogram {
    private var fine = [UInt64](repeating: 0, count: 2_000)
    private var medium = [UInt64](repeating: 0, count: 1_800)
    private var coarse = [UInt64](repeating: 0, count: 20_000)
    private(set) var count: UInt64 = 0
    private(set) var maxMicros: Double = 0

    mutating func record(seconds: Double) {
        let us = max(seconds * 1e6, 0)
        count += 1
        maxMicros = max(maxMicros, us)
        if us < 2_000 {
            fine[Int(us)] += 1
        } else if us < 20_000 {
            medium[Int((us - 2_000) / 10)] += 1
        } else {
            coarse[min(Int((us - 20_000) / 1_000), coarse.count - 1)] += 1
        }
    }

    mutating func reset() { self = LatencyHistogram() }

    /// The latency (ms) at quantile `q` (0…1): the upper edge of the bucket holding it.
    func quantileMs(_ q: Double) -> Double? {
        guard count > 0 else { return nil }
        let rank = UInt64((Double(count) * q).rounded(.up))
        var seen: UInt64 = 0
        for (i, n) in fine.enumerated() {
            seen += n
            if seen >= rank { return Double(i + 1) / 1000 }
        }
        for (i, n) in medium.enumerated() {
            seen += n
            if seen >= rank { return (2_000 + Double(i + 1) * 10) / 1000 }
        }
        for (i, n) in coarse.enumerated() {
            seen += n
            if seen >= rank { return (20_000 + Double(i + 1) * 1_000) / 1000 }
        }
        return maxMicros / 1000
    }
}
