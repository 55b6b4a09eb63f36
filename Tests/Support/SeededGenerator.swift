import Glibc

/// A seeded generator (SplitMix64) for the tests that draw random cases: the same seed, the same
/// cases, so a failure can be run again. `forTests()` takes `GESTUREPAD_TEST_SEED` when set (to
/// explore other cases, or repeat a failing run's), else a fixed seed; a test that draws prints
/// `seed` with its failures.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    /// The seed this generator started from.
    public let seed: UInt64
    private var state: UInt64

    public init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// The generator a test draws its cases from: `GESTUREPAD_TEST_SEED` (decimal) or 41.
    public static func forTests() -> SeededGenerator {
        let text = getenv("GESTUREPAD_TEST_SEED").map { String(cString: $0) }
        return SeededGenerator(seed: text.flatMap { UInt64($0) } ?? 41)
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
