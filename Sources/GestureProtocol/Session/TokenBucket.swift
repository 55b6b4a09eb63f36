/// The per-connection rate limit: a token bucket refilled at `ratePerSecond` on the arrival
/// clock, holding at most one second's worth, so bursts pass and only a sustained excess
/// runs it dry.
struct TokenBucket: Sendable {
    let ratePerSecond: Double
    private var tokens: Double
    private var lastArrival: Double?

    /// `ratePerSecond` ≤ 0 turns the limit off.
    init(ratePerSecond: Int) {
        self.ratePerSecond = Double(ratePerSecond)
        self.tokens = Double(ratePerSecond)
    }

    /// Takes `count` tokens at `arrival` (ms); false when the bucket cannot cover them.
    mutating func take(_ count: Int, at arrival: Double) -> Bool {
        guard ratePerSecond > 0 else { return true }
        if let last = lastArrival {
            let elapsed = max(0, arrival - last)
            tokens = min(ratePerSecond, tokens + elapsed * ratePerSecond / 1000)
        }
        lastArrival = max(arrival, lastArrival ?? arrival)
        tokens -= Double(count)
        return tokens >= 0
    }
}
