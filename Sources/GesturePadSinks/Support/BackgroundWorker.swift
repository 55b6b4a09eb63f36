import Dispatch
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

/// A bounded queue (`WorkerQueue`) drained on a dedicated `WorkerThread`. `submit` never
/// blocks: it appends under a short lock and, when no drain is pending, asks the thread for
/// one; a full queue counts the item as dropped.
final class BackgroundWorker<Item: Sendable>: Sendable {
    private let queue: LockedQueue<Item>
    private let thread: WorkerThread
    private let drain: @Sendable () -> Void
    private let finished = DispatchSemaphore(value: 0)
    let capacity: Int

    /// Prepares the thread; `makeConsumer` runs on it, at the first drain.
    init<C: WorkerConsumer>(name: String, capacity: Int, makeConsumer: @escaping @Sendable () -> C) where C.Item == Item {
        self.capacity = capacity
        let queue = LockedQueue(WorkerQueue<Item>(capacity: capacity))
        let thread = WorkerThread(name: name)
        let consumer = ConfinedConsumer(make: makeConsumer)
        let finished = finished
        self.queue = queue
        self.thread = thread
        // Runs on the worker thread only: the consumer is never touched anywhere else.
        drain = {
            let batch = queue.state.withLock { $0.take(into: &consumer.batch) }
            consumer.handle(batch)
            if batch.closing {
                thread.stop()
                finished.signal()
            }
        }
    }

    /// Queues an item; `false` when it was dropped (queue full or worker closed).
    @discardableResult
    func submit(_ item: Item) -> Bool {
        let (accepted, drainNow) = queue.state.withLock { $0.push(item) }
        if drainNow { thread.execute(drain) }
        return accepted
    }

    /// Asks the consumer to reopen its resources once the items queued so far are handled.
    func requestReopen() {
        if queue.state.withLock({ $0.requestReopen() }) { thread.execute(drain) }
    }

    /// Drains what is queued and stops the thread, waiting at most `timeout` seconds.
    /// Returns whether the thread finished in time.
    @discardableResult
    func close(timeout: Double = 2) -> Bool {
        let (first, drainNow) = queue.state.withLock { $0.close() }
        guard first else { return true }
        if drainNow { thread.execute(drain) }
        return finished.wait(timeout: .now() + max(0, min(timeout, 3_600))) == .success
    }
}

/// The queue under its lock, shared by the submitting threads and the drain.
private final class LockedQueue<Item: Sendable>: Sendable {
    let state: Mutex<WorkerQueue<Item>>
    init(_ queue: WorkerQueue<Item>) { state = Mutex(queue) }
}

/// A `WorkerConsumer` and its batch buffer, touched by the worker thread only (every access
/// is inside a drain, and drains run one after another on that thread).
private final class ConfinedConsumer<C: WorkerConsumer>: @unchecked Sendable {
    private let make: @Sendable () -> C
    private var consumer: C?
    private var finished = false
    var batch: [C.Item] = []

    init(make: @escaping @Sendable () -> C) { self.make = make }

    func handle(_ info: WorkerQueue<C.Item>.Batch) {
        guard !finished else { return }
        finished = info.closing
        var current = consumer ?? make()
        defer { consumer = info.closing ? nil : current }
        if let split = info.reopenAt, split < batch.count {
            // Items submitted before the request go to the old file, the rest to the new.
            current.consume(Array(batch[..<split]), dropped: info.dropped)
            current.reopen()
            current.consume(Array(batch[split...]), dropped: 0)
        } else {
            if !batch.isEmpty || info.dropped > 0 { current.consume(batch, dropped: info.dropped) }
            if info.reopenAt != nil { current.reopen() }
        }
        if info.closing { current.finish() }
    }
}
