import GestureControl
import Synchronization
import Testing

@testable import GesturePadHost

/// The status relay tells its observer the current status at once, then each change once.
@Suite struct ControlStatusRelayTests {
    @Test func observerSeesCurrentThenChanges() {
        let relay = ControlStatusRelay(.inactive(reason: "waiting"))
        relay.report(.active)
        let seen = Mutex<[ControlBackendStatus]>([])
        relay.observe { status in seen.withLock { $0.append(status) } }
        relay.report(.active)
        relay.report(.inactive(reason: "closed"))
        relay.report(.inactive(reason: "closed"))
        #expect(seen.withLock { $0 } == [.active, .inactive(reason: "closed")])
        #expect(relay.status == .inactive(reason: "closed"))
    }
}
