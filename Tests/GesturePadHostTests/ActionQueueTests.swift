import GestureControl
import Testing

@testable import GesturePadHost

@Suite struct ActionQueueTests {
    private func actions(_ queue: ActionQueue) -> [HostAction] {
        queue.items.compactMap { item in
            if case .action(let action) = item { return action }
            return nil
        }
    }

    /// Motion and wheel drop at capacity; presses and text at twice that; releases never.
    @Test func fullQueueShedsMotionFirstAndNeverReleases() {
        var queue = ActionQueue(capacity: 2)
        let offered: [(HostAction, Bool)] =
            [
                (.motion(dx: 1, dy: 0), true), (.wheel(dx: 0, dy: 1), true),
                (.motion(dx: 2, dy: 0), false), (.wheel(dx: 0, dy: 1), false), (.wheelStop, false),
                (.button(.left, .down), true), (.text("x"), true),
                (.key(.character("a"), .down), false), (.text("y"), false),
            ] + Array(repeating: (.button(.left, .up), true), count: 10) + [(.key(.character("a"), .up), true)]
        for (action, accepted) in offered {
            let result = queue.append(action)
            #expect(result == accepted, "\(action)")
        }
        queue.append(marker: .releaseAll)
        #expect(queue.items.count == 16)
        #expect(queue.droppedTotal == 5)
        let first = queue.takeDropCount()
        let second = queue.takeDropCount()
        #expect(first == 5)
        #expect(second == 0)
    }

    /// Taking swaps storage: the queue is empty after, and keeps its order in the batch.
    @Test func takeMovesEverythingInOrder() {
        var queue = ActionQueue(capacity: 8)
        queue.append(.motion(dx: 1, dy: 1))
        queue.append(marker: .releaseAll)
        queue.append(.button(.right, .down))
        var batch: [WorkItem] = []
        queue.take(into: &batch)
        #expect(queue.isEmpty)
        #expect(batch.count == 3)
        if case .releaseAll = batch[1] {} else { Issue.record("the marker kept its place") }
        #expect(actions(queue).isEmpty)
    }
}
