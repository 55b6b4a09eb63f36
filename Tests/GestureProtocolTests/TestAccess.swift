@testable import GestureProtocol

// What the tests read that the server itself never needs.

extension ProtocolSession {
    /// Whether the touchpad's engine was made (at its first pointer message).
    var hasEngine: Bool { core?.engine != nil }
}
