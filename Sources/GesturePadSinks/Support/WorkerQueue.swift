/// The bounded queue in front of a `BackgroundWorker`, pure: items past `capacity` are
/// dropped and counted, and a reopen request remembers how many items came before it. It lives
/// in the worker's `WorkerMailbox`, which wakes the thread once per batch and keeps the stop.
struct WorkerQueue<Item: Sendable>: Sendable {
    /// What the worker learns with the items it takes.
    struct Batch: Equatable, Sendable {
        /// Items refused since the last batch.
        var dropped: Int
        /// A reopen was requested after this many of the items taken.
        var reopenAt: Int?
        /// The worker is stopping: this is the last batch (the mailbox's stop).
        var closing = false
    }

    let capacity: Int
    private var items: [Item] = []
    private var dropped = 0
    private var reopenAt: Int?

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Queues `item`; false when it was dropped (the queue is full).
    mutating func push(_ item: Item) -> Bool {
        guard items.count < capacity else {
            dropped += 1
            return false
        }
        items.append(item)
        return true
    }

    /// Asks for a reopen once the items queued so far are handled.
    mutating func requestReopen() {
        if reopenAt == nil { reopenAt = items.count }
    }

    /// Everything queued, swapped into `buffer` (whose old capacity is reused for the queue).
    mutating func take(into buffer: inout [Item]) -> Batch {
        buffer.removeAll(keepingCapacity: true)
        swap(&buffer, &items)
        defer {
            dropped = 0
            reopenAt = nil
        }
        return Batch(dropped: dropped, reopenAt: reopenAt)
    }
}
