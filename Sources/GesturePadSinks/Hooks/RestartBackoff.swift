/// When to restart a `pipe` hook's process after it exits: 0.1 s, doubling up to 5 s; a
/// process that lived at least 10 s resets the delay to 0.1 s. Pure: the times come in.
struct RestartBackoff: Sendable, Equatable {
    static let first: Duration = .milliseconds(100)
    static let longest: Duration = .seconds(5)
    /// A process that ran this long was healthy: the next delay starts over.
    static let healthyLife: Duration = .seconds(10)

    private var next = RestartBackoff.first

    /// A process started at `start` exited at `now`: the moment to start the next one.
    mutating func exited(startedAt start: ContinuousClock.Instant, at now: ContinuousClock.Instant)
        -> ContinuousClock.Instant
    {
        if now - start >= Self.healthyLife { next = Self.first }
        let delay = next
        next = min(next * 2, Self.longest)
        return now + delay
    }
}
