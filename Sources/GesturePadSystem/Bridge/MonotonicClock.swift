import Glibc

/// The server clock of PROTOCOL.md "Time": `CLOCK_MONOTONIC` in milliseconds (the clock lws
/// schedules its timers on, and wlroots stamps its input with).
public enum MonotonicClock {
    public static func nowMilliseconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) * 1_000 + Double(spec.tv_nsec) / 1_000_000
    }
}
