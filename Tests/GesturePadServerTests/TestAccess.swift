@testable import GesturePadServer

// What the tests read that the server itself never needs.

extension RefusalLimiter {
    /// Addresses remembered.
    var trackedCount: Int { buckets.count }
}

extension OutboundBatch {
    /// The messages as text.
    var texts: [String] {
        (0..<count).map { String(decoding: self[$0], as: UTF8.self) }
    }
}
