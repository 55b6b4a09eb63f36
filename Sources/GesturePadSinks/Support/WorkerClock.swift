/// The time source of the sinks' policies and workers: `now` as an instant of the monotonic
/// clock. The server uses `SystemWorkerClock`; tests pass a manual clock they advance, so
/// backoffs, timeouts and rate limits are checked on virtual time without sleeping.
protocol WorkerClock: Sendable {
    var now: ContinuousClock.Instant { get }
}

/// The real monotonic clock.
struct SystemWorkerClock: WorkerClock {
    var now: ContinuousClock.Instant { .now }
}

extension Duration {
    /// Seconds as a `Double`; a negative duration (time going back) counts as none.
    var nonNegativeSeconds: Double {
        let (seconds, attoseconds) = components
        return max(0, Double(seconds) + Double(attoseconds) * 1e-18)
    }
}
