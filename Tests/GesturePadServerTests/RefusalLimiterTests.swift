import Testing

@testable import GesturePadServer

/// Refused upgrades per address: a burst, then one try per 6 s; other addresses unaffected.
struct RefusalLimiterTests {
    /// Ten refusals pass, the eleventh attempt is blocked; 6 s later one more try is allowed.
    @Test func burstThenRefill() {
        var limiter = RefusalLimiter()
        for _ in 0..<10 {
            #expect(!limiter.isBlocked("10.0.0.2", at: 0))
            limiter.recordRefusal("10.0.0.2", at: 0)
        }
        #expect(limiter.isBlocked("10.0.0.2", at: 0))
        #expect(!limiter.isBlocked("10.0.0.3", at: 0))
        #expect(limiter.isBlocked("10.0.0.2", at: 5_999))
        #expect(!limiter.isBlocked("10.0.0.2", at: 6_000))
        limiter.recordRefusal("10.0.0.2", at: 6_000)
        #expect(limiter.isBlocked("10.0.0.2", at: 6_001))
    }

    /// Memory is bounded: past the capacity, recovered addresses are forgotten first.
    @Test func bounded() {
        var limiter = RefusalLimiter()
        limiter.capacity = 100
        for i in 0..<1_000 { limiter.recordRefusal("a\(i)", at: Double(i) * 100_000) }
        #expect(limiter.trackedCount <= 100)
        for _ in 0..<10 { limiter.recordRefusal("z", at: 1e9) }
        #expect(limiter.isBlocked("z", at: 1e9))
    }
}
