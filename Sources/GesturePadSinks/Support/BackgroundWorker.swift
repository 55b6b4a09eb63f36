import Dispatch
import Foundation
import Synchronization

/// The thread-confined side of a `BackgroundWorker`: built on the worker's own thread and
/// only ever touched there, so it may keep plain mutable state (a file, a buffer).
protocol WorkerConsumer: SendableMetatype {
    associatedtype Item: Sendable
    /// Handles the items submitted since the last call, in order. `dropped` counts the items
    /// refused since the last call because the queue was full.
    mutating func consume(_ items: [Item], dropped: Int)
    /// A reopen was requested (SIGHUP), after every item submitted before it was consumed.
    mutating func reopen()
    /// The worker is stopping: release resources.
    mutating func finish()
}

/// A bounded queue drained by one dedicated thread. `submit` never blocks: it appends under a
/// short lock and wakes the thread, or counts the item as dropped when the queue is full.
final class BackgroundWorker<Item: Sendable>: Sendable {
    private struct State {
        var items: [Item] = []
        var dropped = 0
        /// A reopen was requested when the queue held this many items.
        var reopenAt: Int?
        var closing = false
    }

    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    let capacity: Int

    /// Starts the thread; `makeConsumer` runs on it.
    init<C: WorkerConsumer>(name: String, capacity: Int, makeConsumer: @escaping @Sendable () -> C) where C.Item == Item {
        self.capacity = capacity
        let thread = Thread { [self] in
            var consumer = makeConsumer()
            var batch: [Item] = []
            while true {
                wake.wait()
                var dropped = 0
                var reopenAt: Int?
                var closing = false
                state.withLock { s in
                    swap(&batch, &s.items)
                    dropped = s.dropped
                    s.dropped = 0
                    reopenAt = s.reopenAt
                    s.reopenAt = nil
                    closing = s.closing
                }
                if let split = reopenAt, split < batch.count {
                    // Items submitted before the request go to the old file, the rest to the new.
                    consumer.consume(Array(batch[..<split]), dropped: dropped)
                    consumer.reopen()
                    consumer.consume(Array(batch[split...]), dropped: 0)
                } else {
                    if !batch.isEmpty || dropped > 0 { consumer.consume(batch, dropped: dropped) }
                    if reopenAt != nil { consumer.reopen() }
                }
                batch.removeAll(keepingCapacity: true)
                if closing { break }
            }
            consumer.finish()
            finished.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Queues an item; `false` when it was dropped (queue full or worker closed).
    @discardableResult
    func submit(_ item: Item) -> Bool {
        let accepted = state.withLock { s -> Bool in
            guard !s.closing, s.items.count < capacity else {
                s.dropped += 1
                return false
            }
            s.items.append(item)
            return true
        }
        if accepted { wake.signal() }
        return accepted
    }

    /// Asks the consumer to reopen its resources once the items queued so far are handled.
    func requestReopen() {
        state.withLock { s in
            if s.reopenAt == nil { s.reopenAt = s.items.count }
        }
        wake.signal()
    }

    /// Drains what is queued and stops the thread, waiting at most `timeout` seconds.
    /// Returns whether the thread finished in time.
    @discardableResult
    func close(timeout: Double = 2) -> Bool {
        let first = state.withLock { s -> Bool in
            defer { s.closing = true }
            return !s.closing
        }
        guard first else { return true }
        wake.signal()
        return finished.wait(timeout: .now() + timeout) == .success
    }
}
