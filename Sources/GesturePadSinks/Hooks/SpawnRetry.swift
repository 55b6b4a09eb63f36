import GesturePadSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether to try starting a hook's process again after starting it failed. Only "text file
/// busy" (ETXTBSY: the script is being written — an editor saving it, a deploy copying it —
/// at the moment it starts) is retried: after 10, 20, 40, 80 and 160 ms, then the failure
/// stands. Pure: the time comes in, the moment of the next attempt goes out.
struct SpawnRetry: Sendable {
    /// The waits before each new attempt, in milliseconds.
    static let delays: [Double] = [10, 20, 40, 80, 160]

    private var attempt = 0

    /// Starting failed with `error` at `now`: when to try again, or `nil` to give up.
    mutating func failed(_ error: SystemCallError, at now: Double) -> Double? {
        guard error.errno == ETXTBSY, attempt < Self.delays.count else { return nil }
        defer { attempt += 1 }
        return now + Self.delays[attempt]
    }
}
