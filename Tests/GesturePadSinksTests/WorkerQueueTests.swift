import Testing

@testable import GesturePadSinks

/// The logs' and the recorder's bounded queue, pure: limits, drop counts, reopen split, wake-ups.
@Suite struct WorkerQueueTests {
    /// Past the capacity items are dropped and counted; one drain is requested per batch, not per item.
    @Test func boundedWithOneWakeUpPerBatch() {
        var queue = WorkerQueue<Int>(capacity: 3)
        let pushes = (1...5).map { queue.push($0) }
        #expect(pushes.map(\.accepted) == [true, true, true, false, false])
        #expect(pushes.map(\.drain) == [true, false, false, false, false])
        var items: [Int] = []
        let batch = queue.take(into: &items)
        #expect(items == [1, 2, 3] && batch == .init(dropped: 2, reopenAt: nil, closing: false))
        let sixth = queue.push(6)
        #expect(sixth == (true, true))
        let next = queue.take(into: &items)
        #expect(next == .init(dropped: 0, reopenAt: nil, closing: false) && items == [6])
    }

    /// A reopen request remembers how many items came before it (those go to the old file).
    @Test func reopenSplitsTheBatch() {
        var queue = WorkerQueue<Int>(capacity: 10)
        _ = queue.push(1)
        _ = queue.push(2)
        let asked = [queue.requestReopen(), queue.requestReopen()]
        #expect(asked == [false, false])  // a drain is pending already
        _ = queue.push(3)
        var items: [Int] = []
        let first = queue.take(into: &items)
        #expect(first.reopenAt == 2 && items == [1, 2, 3])
        let again = queue.requestReopen()
        let second = queue.take(into: &items)
        #expect(again && second.reopenAt == 0 && items.isEmpty)
    }

    /// Close is final: one last batch (taken by the pending drain), then items are refused.
    @Test func closeIsFinal() {
        var queue = WorkerQueue<Int>(capacity: 10)
        _ = queue.push(1)
        let closes = [queue.close(), queue.close()].map { [$0.first, $0.drain] }
        #expect(closes == [[true, false], [false, false]])  // the drain pending since the push takes the last batch
        let late = queue.push(2)
        #expect(late == (false, false))
        var items: [Int] = []
        let last = queue.take(into: &items)
        #expect(last == .init(dropped: 1, reopenAt: nil, closing: true) && items == [1])
        var idle = WorkerQueue<Int>(capacity: 10)
        let idleClose = idle.close()
        #expect(idleClose.first && idleClose.drain)  // nothing pending: close asks for the last drain
    }
}
