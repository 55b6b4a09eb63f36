import Testing

@testable import GestureEngine

/// The ignored ids of a cancelled contact: one bounded rule for the engine and the mapper.
struct IgnoredPointersTests {
    @Test func theOldestIsForgottenPastTheLimitAndRemoveSaysWhetherItWasThere() {
        var ignored = IgnoredPointers()
        for id in 0..<(IgnoredPointers.limit + 2) { ignored.insert(id) }
        #expect(!ignored.contains(0) && !ignored.contains(1))
        #expect(ignored.contains(2) && ignored.contains(IgnoredPointers.limit + 1))
        #expect(ignored.remove(5) && !ignored.remove(5) && !ignored.contains(5))
    }
}
