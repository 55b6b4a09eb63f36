import GesturePadSystem

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

/// A bounded queue (`WorkerQueue`, in a `WorkerMailbox`) drained on a dedicated `WorkerThread`.
/// `submit` never blocks: it appends under a short lock and, when no drain is pending, wakes
/// the thread (the mailbox's wake-up); a full queue counts the item as dropped.
final class BackgroundWorker<Item: Sendable>: Sendable {
    private let mailbox: WorkerMailbox<WorkerQueue<Item>>
    private let thread: WorkerThread
    let capacity: Int

    /// Prepares the thread; it starts at the first submit, and `makeConsumer` runs on it then.
    init<C: WorkerConsumer>(name: String, capacity: Int, makeConsumer: @escaping @Sendable () -> C) where C.Item == Item {
        self.capacity = capacity
        let thread = WorkerThread(name: name)
        let mailbox = WorkerMailbox(WorkerQueue<Item>(capacity: capacity)) { thread.wake() }
        self.mailbox = mailbox
        self.thread = thread
        let consumer = ConfinedConsumer(make: makeConsumer)
        // Each turn drains: the consumer is touched on the worker thread only.
        thread.setTurn {
            var (batch, stopping) = mailbox.take { $0.take(into: &consumer.batch) }
            batch.closing = stopping
            consumer.handle(batch)
            return batch.closing ? .exit : .sleep(until: nil)
        }
    }

    /// Queues an item; `false` when it was dropped (queue full or worker closed).
    @discardableResult
    func submit(_ item: Item) -> Bool {
        var accepted = false
        let open = mailbox.post { accepted = $0.push(item) }
        return open && accepted
    }

    /// Asks the consumer to reopen its resources once the items queued so far are handled.
    func requestReopen() {
        mailbox.post { $0.requestReopen() }
    }

    /// Drains what is queued and stops the thread, waiting at most `timeout` seconds.
    /// Returns whether the thread finished in time.
    @discardableResult
    func close(timeout: Double = 2) -> Bool {
        guard mailbox.stop() else { return true }
        return thread.join(timeout: timeout)
    }
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
