/// When to restart a `pipe` hook's process after it exits: 0.1 s, doubling up to 5 s; a
/// process that lived at least 10 s resets the delay to 0.1 s. Pure: the times come in, in
/// milliseconds of the worker's clock.
struct RestartBackoff: Sendable, Equatable {
    static let firstMilliseconds = 100.0
    static let longestMilliseconds = 5_000.0
    /// A process that ran this long was healthy: the next delay starts over.
    static let healthyLifeMilliseconds = 10_000.0

    private var next = RestartBackoff.firstMilliseconds

    /// A process started at `start` exited at `now`: the moment to start the next one.
    mutating func exited(startedAt start: Double, at now: Double) -> Double {
        if now - start >= Self.healthyLifeMilliseconds { next = Self.firstMilliseconds }
        let delay = next
        next = min(next * 2, Self.longestMilliseconds)
        return now + delay
    }
}
