import GestureControl
import Testing

@testable import GesturePadHost

/// The touchpad's waiting frames (`TouchpadFrameQueue`) with the pacer, on a virtual clock.
@Suite struct TouchpadFrameQueueTests {
    private func contact(_ owner: Int, _ k: Int, t: Double) -> TouchContact {
        TouchContact(owner: owner, id: 1, phase: k == 0 ? .down : .move, x: 100, y: 100 + Double(k), t: t)
    }

    /// Writes every planned frame when due; returns the due times.
    private func writeAll(_ queue: inout TouchpadFrameQueue) -> [Double] {
        var dues: [Double] = []
        while let due = queue.nextDue, queue.dueFrame(at: due) != nil {
            dues.append(due)
            queue.markWritten(at: due)
        }
        return dues
    }

    /// A second phone's touch cancelled while both phones' frames wait: the first phone's
    /// frames keep the times they were planned for, and its next frame follows its own last
    /// one — not the dropped phone's frames, planned 24 ms later.
    @Test func dropKeepsTheOthersPlan() {
        var queue = TouchpadFrameQueue()
        var pacer = FramePacer()
        for (k, t) in [0.0, 8, 16].enumerated() { queue.add(contact(1, k, t: t)) }
        for (k, t) in [0.0, 8, 16, 24, 32].enumerated() { queue.add(contact(2, k, t: t)) }
        queue.plan(with: &pacer, now: 1_000)
        queue.drop(owner: 2)
        pacer.rewind(to: queue.lastPlanned)
        #expect(queue.lastPlanned?.due == 1_012)
        queue.add(contact(1, 3, t: 24))
        queue.plan(with: &pacer, now: 1_001)
        #expect(writeAll(&queue) == [1_000, 1_006, 1_012, 1_018])
        #expect(queue.isEmpty)
    }

    /// Dropping the only phone's frames leaves nothing planned: the next touch is written at once.
    @Test func dropAllThenAtOnce() {
        var queue = TouchpadFrameQueue()
        var pacer = FramePacer()
        for (k, t) in [0.0, 8, 16].enumerated() { queue.add(contact(2, k, t: t)) }
        queue.plan(with: &pacer, now: 1_000)
        queue.drop(owner: 2)
        pacer.rewind(to: queue.lastPlanned)
        #expect(queue.isEmpty && queue.lastPlanned == nil)
        queue.add(contact(1, 0, t: 500))
        queue.plan(with: &pacer, now: 1_002)
        #expect(writeAll(&queue) == [1_002])
    }
}
