import Testing

@testable import GesturePadSinks

/// The logs' and the recorder's bounded queue, pure: limits, drop counts, reopen split. (Its
/// wake-ups and its stop are the `WorkerMailbox`'s: WorkerMailboxTests.)
@Suite struct WorkerQueueTests {
    /// Past the capacity items are dropped, and counted in the next batch.
    @Test func bounded() {
        var queue = WorkerQueue<Int>(capacity: 3)
        let pushes = (1...5).map { queue.push($0) }
        #expect(pushes == [true, true, true, false, false])
        var items: [Int] = []
        let batch = queue.take(into: &items)
        #expect(items == [1, 2, 3] && batch == .init(dropped: 2, reopenAt: nil))
        let sixth = queue.push(6)
        #expect(sixth)
        let next = queue.take(into: &items)
        #expect(next == .init(dropped: 0, reopenAt: nil) && items == [6])
    }

    /// A reopen request remembers how many items came before it (those go to the old file).
    @Test func reopenSplitsTheBatch() {
        var queue = WorkerQueue<Int>(capacity: 10)
        _ = queue.push(1)
        _ = queue.push(2)
        queue.requestReopen()
        queue.requestReopen()
        _ = queue.push(3)
        var items: [Int] = []
        let first = queue.take(into: &items)
        #expect(first.reopenAt == 2 && items == [1, 2, 3])
        queue.requestReopen()
        let second = queue.take(into: &items)
        #expect(second.reopenAt == 0 && items.isEmpty)
    }
}
