/// The per-connection rate limit: a token bucket refilled at `ratePerSecond` on the arrival
/// clock, holding at most one second's worth, so bursts pass and only a sustained excess
/// runs it dry.
///
/// Arrival times are the server's, and the server sometimes stops reading a connection (its
/// send queue is full): what the peer sends meanwhile waits in the network and arrives at once
/// when reading resumes. `stretch(forPauseOf:)` keeps that wait from counting against the peer.
struct TokenBucket: Sendable {
    let ratePerSecond: Double
    private var tokens: Double
    private var lastArrival: Double?
    /// Room above the one-second capacity, granted for time the server did not read: the tokens
    /// that time refills are kept instead of being cut at the capacity. It shrinks as they are
    /// spent, is gone once the bucket is back under its normal capacity, and lapses at
    /// `extraUntil` (what waited in the network has been read by then).
    private var extra: Double = 0
    private var extraUntil: Double = 0

    /// The longest pause (ms) credited at once, so a peer cannot bank an unbounded burst by
    /// leaving its replies unread.
    static let maxPauseCredit = 30_000.0

    /// `ratePerSecond` ≤ 0 turns the limit off.
    init(ratePerSecond: Int) {
        self.ratePerSecond = Double(ratePerSecond)
        self.tokens = Double(ratePerSecond)
    }

    /// Takes `count` tokens at `arrival` (ms); false when the bucket cannot cover them.
    mutating func take(_ count: Int, at arrival: Double) -> Bool {
        guard ratePerSecond > 0 else { return true }
        if arrival > extraUntil { extra = 0 }
        if let last = lastArrival {
            let elapsed = max(0, arrival - last)
            tokens = min(ratePerSecond + extra, tokens + elapsed * ratePerSecond / 1000)
        }
        lastArrival = max(arrival, lastArrival ?? arrival)
        tokens -= Double(count)
        extra = max(0, min(extra, tokens - ratePerSecond))
        return tokens >= 0
    }

    /// The server did not read from the connection for `duration` ms, until `resumed`. Messages
    /// the peer sent in that time (no more than the rate allows, if it keeps to it) arrive
    /// together afterwards; the capacity grows by what that time refills (up to
    /// `maxPauseCredit`), so they count as if they had been read when they were sent. The room
    /// lasts as long as the pause did (at least a second): long enough to read the backlog, not
    /// long enough to bank a burst for later.
    mutating func stretch(forPauseOf duration: Double, resumed: Double) {
        guard ratePerSecond > 0, duration > 0 else { return }
        let credit = min(duration, Self.maxPauseCredit)
        extra = min(Self.maxPauseCredit * ratePerSecond / 1000, extra + credit * ratePerSecond / 1000)
        extraUntil = max(extraUntil, resumed + max(1_000, credit))
    }
}
