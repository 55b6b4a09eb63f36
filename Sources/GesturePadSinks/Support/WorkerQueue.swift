/// The bounded queue in front of a `BackgroundWorker`, pure: items past `capacity` are
/// dropped and counted, a reopen request remembers how many items came before it, and the
/// queue says when the worker thread must be asked to drain (only when it is not already
/// asked: one wake-up per batch, not per item).
struct WorkerQueue<Item: Sendable>: Sendable {
    /// What the worker learns with the items it takes.
    struct Batch: Equatable, Sendable {
        /// Items refused since the last batch.
        var dropped: Int
        /// A reopen was requested after this many of the items taken.
        var reopenAt: Int?
        /// The worker is stopping: this is the last batch.
        var closing: Bool
    }

    let capacity: Int
    private var items: [Item] = []
    private var dropped = 0
    private var reopenAt: Int?
    private(set) var closing = false
    /// A drain is requested and has not taken its batch yet.
    private var drainPending = false

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Queues `item`. Returns whether it was accepted and whether a drain must be requested.
    mutating func push(_ item: Item) -> (accepted: Bool, drain: Bool) {
        guard !closing, items.count < capacity else {
            dropped += 1
            return (false, false)
        }
        items.append(item)
        return (true, requestDrain())
    }

    /// Asks for a reopen once the items queued so far are handled; whether a drain must be requested.
    mutating func requestReopen() -> Bool {
        if reopenAt == nil { reopenAt = items.count }
        return requestDrain()
    }

    /// Stops taking items: whether this is the first close, and whether a drain must be
    /// requested (the pending one, if any, takes the last batch).
    mutating func close() -> (first: Bool, drain: Bool) {
        guard !closing else { return (false, false) }
        closing = true
        return (true, requestDrain())
    }

    /// Everything queued, swapped into `buffer` (whose old capacity is reused for the queue).
    mutating func take(into buffer: inout [Item]) -> Batch {
        buffer.removeAll(keepingCapacity: true)
        swap(&buffer, &items)
        defer {
            dropped = 0
            reopenAt = nil
            drainPending = false
        }
        return Batch(dropped: dropped, reopenAt: reopenAt, closing: closing)
    }

    private mutating func requestDrain() -> Bool {
        guard !drainPending else { return false }
        drainPending = true
        return true
    }
}
