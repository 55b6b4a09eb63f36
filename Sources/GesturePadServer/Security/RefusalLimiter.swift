/// Limits refused WebSocket upgrades per client address, so the access token cannot be
/// guessed online: each address may be refused (missing or wrong token, foreign Origin)
/// `burst` times, and earns one more try every `60 / perMinute` seconds; an address with no
/// tries left is answered 429 before its token is even looked at. Pure: time is an input
/// (server clock, ms).
///
/// With the defaults (10 at once, 10 a minute) a guesser gets about 14,400 tries a day per
/// address against 2¹²⁸ possible tokens; a person who mistyped a link is not locked out for
/// long (6 s per try).
struct RefusalLimiter: Sendable {
    var burst: Double = 10
    var perMinute: Double = 10
    /// Addresses remembered at most; full buckets are forgotten first.
    var capacity = 4_096

    struct Bucket {
        var tries: Double
        var updated: Double
    }

    private(set) var buckets: [String: Bucket] = [:]

    /// Whether `address` has no tries left at `now`.
    func isBlocked(_ address: String, at now: Double) -> Bool {
        guard let bucket = buckets[address] else { return false }
        return tries(of: bucket, at: now) < 1
    }

    /// One refusal of `address` at `now`.
    mutating func recordRefusal(_ address: String, at now: Double) {
        let current = buckets[address].map { tries(of: $0, at: now) } ?? burst
        buckets[address] = Bucket(tries: max(current - 1, 0), updated: now)
        if buckets.count > capacity { forgetFull(at: now) }
    }

    private func tries(of bucket: Bucket, at now: Double) -> Double {
        let earned = max(now - bucket.updated, 0) / 60_000 * perMinute
        return min(bucket.tries + earned, burst)
    }

    private mutating func forgetFull(at now: Double) {
        buckets = buckets.filter { tries(of: $0.value, at: now) < burst }
        while buckets.count > capacity, let oldest = buckets.min(by: { $0.value.updated < $1.value.updated }) {
            buckets.removeValue(forKey: oldest.key)
        }
    }
}
