/// How late a connection's frames arrive, over the last `PlayoutConfig.window` (pure).
///
/// A frame's lateness is its `arrival − t` beyond the smallest `arrival − t` seen (the
/// fastest the link ever was: PROTOCOL.md "Time" maps page time to server time the same
/// way). Lateness is counted in 1 ms buckets, each sample also kept in a ring to leave the
/// counts when it is older than the window: adding, expiring and the quantile cost no
/// allocation once made, and the quantile is only searched for when enough frames were late
/// for it to pass `tolerance` (on a clean link, never). Apart from that window, the most a frame
/// was late in each of the last ten seconds is kept (`peak(at:)`).
struct LinkJitter: Sendable {
    /// Buckets of 1 ms; the last holds everything later.
    static let bucketCount = 256
    /// Samples remembered at most (2 s of 120 Hz input is 240).
    static let capacity = 512

    private(set) var offset: Double? = nil
    private var buckets: [Int32]
    private var ringArrival: [Double]
    private var ringBucket: [Int16]
    private var head = 0
    private(set) var count = 0
    /// Samples above the tolerance now in the window.
    private var lateCount = 0
    private let tolerance: Double
    private let window: Double
    /// The latest frame of each of the last `peakSlots` seconds (server time): what a link
    /// showed lately, even if it held a frame back only once in a while.
    private var peaks: [Double]
    private var peakSeconds: [Int]
    static let peakSlots = 10

    init(tolerance: Double, window: Double) {
        self.tolerance = max(tolerance, 0)
        self.window = max(window, 0)
        buckets = Array(repeating: 0, count: Self.bucketCount)
        ringArrival = Array(repeating: 0, count: Self.capacity)
        ringBucket = Array(repeating: 0, count: Self.capacity)
        peaks = Array(repeating: 0, count: Self.peakSlots)
        peakSeconds = Array(repeating: Int.min, count: Self.peakSlots)
    }

    /// A frame of page time `t` arrived at `arrival` (server ms).
    mutating func note(t: Double, arrival: Double) {
        guard t.isFinite, arrival.isFinite else { return }
        let sample = arrival - t
        offset = min(offset ?? sample, sample)
        expire(before: arrival - window)
        if count == Self.capacity { dropOldest() }
        let bucket = Int16(min(max(Int((sample - (offset ?? sample)).rounded(.down)), 0), Self.bucketCount - 1))
        let slot = (head + count) % Self.capacity
        ringArrival[slot] = arrival
        ringBucket[slot] = bucket
        count += 1
        buckets[Int(bucket)] += 1
        if Double(bucket) > tolerance { lateCount += 1 }
        let second = Int((arrival / 1000).rounded(.down))
        let peakSlot = ((second % Self.peakSlots) + Self.peakSlots) % Self.peakSlots
        if peakSeconds[peakSlot] != second {
            peakSeconds[peakSlot] = second
            peaks[peakSlot] = 0
        }
        peaks[peakSlot] = max(peaks[peakSlot], sample - (offset ?? sample))
    }

    /// The most a frame was late in the last `peakSlots` seconds before `now` (ms).
    func peak(at now: Double) -> Double {
        let second = Int((now / 1000).rounded(.down))
        var peak = 0.0
        for slot in 0..<Self.peakSlots where peakSeconds[slot] > second - Self.peakSlots {
            peak = max(peak, peaks[slot])
        }
        return peak
    }

    /// The lateness (ms) that a `share` of the frames in the window did not exceed — 0 unless
    /// more than `1 − share` of them were later than the tolerance.
    func lateness(quantile share: Double) -> Double {
        guard count > 0, Double(lateCount) > Double(count) * (1 - share) else { return 0 }
        let rank = Int((Double(count) * share).rounded(.up))
        var seen = 0
        for index in buckets.indices {
            seen += Int(buckets[index])
            if seen >= rank { return Double(index + 1) }
        }
        return Double(Self.bucketCount)
    }

    /// Forgets the samples that arrived before `time`.
    mutating func expire(before time: Double) {
        while count > 0, ringArrival[head] < time { dropOldest() }
    }

    private mutating func dropOldest() {
        let bucket = ringBucket[head]
        buckets[Int(bucket)] -= 1
        if Double(bucket) > tolerance { lateCount -= 1 }
        head = (head + 1) % Self.capacity
        count -= 1
    }
}
