/// The time source of a `WorkerThread` and of the policies it serves: `now` in milliseconds of
/// the monotonic clock — the server's one time type, the same as the hub's
/// (`MonotonicClock.nowMilliseconds()`). The server uses `SystemWorkerClock`; tests pass a
/// manual clock they advance (and wake the thread), so timers, backoffs, timeouts and rate
/// limits are checked on virtual time without sleeping.
public protocol WorkerClock: Sendable {
    /// Milliseconds of `CLOCK_MONOTONIC` (or of a test's virtual clock).
    var now: Double { get }
}

/// The real monotonic clock, the hub's.
public struct SystemWorkerClock: WorkerClock {
    public init() {}

    public var now: Double { MonotonicClock.nowMilliseconds() }
}
