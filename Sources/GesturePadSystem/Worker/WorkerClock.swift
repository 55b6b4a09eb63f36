/// The time source of a `WorkerThread` and of the policies it serves: `now` as an instant of
/// the monotonic clock. The server uses `SystemWorkerClock`; tests pass a manual clock they
/// advance (and wake the thread), so timers, backoffs, timeouts and rate limits are checked on
/// virtual time without sleeping.
public protocol WorkerClock: Sendable {
    var now: ContinuousClock.Instant { get }
}

/// The real monotonic clock.
public struct SystemWorkerClock: WorkerClock {
    public init() {}

    public var now: ContinuousClock.Instant { .now }
}

extension Duration {
    /// Seconds as a `Double`; a negative duration (time going back) counts as none.
    public var nonNegativeSeconds: Double {
        let (seconds, attoseconds) = components
        return max(0, Double(seconds) + Double(attoseconds) * 1e-18)
    }
}
