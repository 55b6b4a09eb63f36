import GestureProtocol
import Testing

@testable import GesturePadServer

/// The hub's one door (`HubInbox`): inputs raised while a batch is carried out wait for it.
@Suite struct HubInboxTests {
    /// A shell around `harness` that carries out every batch through the inbox, answers
    /// `unpairDevice` the way pairing does (the connection is closed with 4403, an input raised
    /// mid-batch), and after each batch compares the timer each connection has armed at the
    /// transport with the one its state says is armed.
    final class Shell {
        let harness: HubHarness
        let inbox: HubInbox
        var batches: [[HubAction]] = []
        /// Connections whose armed timer differed from their state after a batch.
        var mismatches: [(Int, armed: Double?, state: ConnectionState)] = []

        init(_ harness: HubHarness = HubHarness()) {
            self.harness = harness
            inbox = HubInbox(hub: harness.hub)
        }

        func submit(_ input: HubInput) {
            inbox.submit(input) { actions in
                batches.append(actions)
                harness.transport.carryOut(actions)
                for action in actions {
                    if case .unpairDevice(let id) = action {
                        submit(.refuse(id, code: .deviceNotPaired, reason: "the phone unpaired itself"))
                    }
                }
                for (id, connection) in harness.hub.connections.sorted(by: { $0.key < $1.key })
                where harness.transport.armed[id] != connection.state.wakeup {
                    mismatches.append((id, harness.transport.armed[id], connection.state))
                }
            }
        }
    }

    /// A page's `unpair` while a button is held re-arms its session's timer (the release after
    /// silence counts from the last message) in the batch that hands over `unpairDevice`;
    /// pairing's close, raised while that batch is carried out, is handled after it: the timer
    /// is scheduled, then cancelled by the close, and no batch leaves a timer armed that its
    /// connection's state does not have.
    @Test func unpairMidBatchClosesAfterTheBatch() throws {
        let shell = Shell(ControlStatusHubTests.harness(SwitchableBackend()))
        shell.submit(.opened(1, now: 0))
        shell.submit(.received(1, Array(HubHarness.touchpadHello.utf8)[...], isFinal: true, isBinary: false, now: 1))
        _ = shell.harness.drain(1)
        shell.batches.removeAll()
        shell.harness.transport.schedules.removeAll()
        let down = #"{"type":"button","button":"left","action":"down"}"#
        shell.submit(.received(1, Array(down.utf8)[...], isFinal: true, isBinary: false, now: 100))
        let armedByTouch = try #require(shell.harness.transport.armed[1])
        shell.submit(.received(1, Array(#"{"type":"unpair"}"#.utf8)[...], isFinal: true, isBinary: false, now: 150))

        // The unpair's batch (it hands `unpairDevice` over and re-arms the timer), then the
        // close's batch, in that order: one batch per input, none inside another.
        #expect(shell.batches.count == 3)
        let unpairBatch = shell.batches[1]
        let handedOver = try #require(unpairBatch.firstIndex(of: .unpairDevice(1)))
        let rearmed = try #require(unpairBatch.lastIndex { if case .scheduleWakeup(1, _) = $0 { true } else { false } })
        #expect(handedOver < rearmed)
        #expect(shell.batches[2] == [.cancelWakeup(1), .limitClosingTime(1), .requestWritable(1)])
        #expect(shell.harness.transport.schedules.map(\.1).last == .some(nil))
        #expect(shell.harness.transport.schedules.map(\.1) == [armedByTouch, armedByTouch + 50, nil])
        #expect(shell.harness.transport.armed[1] == nil)
        #expect(shell.harness.hub.connections[1]?.state.isClosing == true)
        #expect(shell.mismatches.isEmpty)
        #expect(shell.harness.drain(1).close == .close(1, code: .deviceNotPaired, reason: "the phone unpaired itself"))
    }

    /// An input submitted outside a batch is handled at once, its actions carried out once.
    @Test func outsideABatchAtOnce() {
        let shell = Shell()
        shell.submit(.opened(1, now: 0))
        #expect(shell.batches == [[.scheduleWakeup(1, deadline: 10_000)]])
        #expect(shell.mismatches.isEmpty)
    }
}
