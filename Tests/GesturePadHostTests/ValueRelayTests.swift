import GestureControl
import Synchronization
import Testing

@testable import GesturePadHost

/// A relay tells its observer the current value at once, then each change once.
@Suite struct ValueRelayTests {
    @Test func observerSeesCurrentThenChanges() {
        let relay = ValueRelay<ControlBackendStatus>(.inactive(reason: "waiting"))
        relay.report(.active)
        let seen = Mutex<[ControlBackendStatus]>([])
        relay.observe { status in seen.withLock { $0.append(status) } }
        relay.report(.active)
        relay.report(.inactive(reason: "closed"))
        relay.report(.inactive(reason: "closed"))
        #expect(seen.withLock { $0 } == [.active, .inactive(reason: "closed")])
        #expect(relay.value == .inactive(reason: "closed"))
    }

    /// A layout relay compares tables by value: the same table reported again is no change.
    @Test func layoutsByValue() {
        let relay = ValueRelay<DesktopLayout.Table?>(nil)
        let seen = Mutex<[[String]?]>([])
        relay.observe { table in seen.withLock { $0.append(table?.names) } }
        relay.report(DesktopLayout.Table(keysyms: [0x61: 0x61], names: ["English (US)"]))
        relay.report(DesktopLayout.Table(keysyms: [0x61: 0x61], names: ["English (US)"]))
        relay.report(DesktopLayout.Table(keysyms: [0xE9: 0xE9], names: ["French"]))
        #expect(seen.withLock { $0 } == [nil, ["English (US)"], ["French"]])
    }
}
