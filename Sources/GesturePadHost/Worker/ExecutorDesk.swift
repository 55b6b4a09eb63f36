import GestureControl
import GesturePadSystem

/// An `ActionWorker`'s executor with what goes with it, kept under the worker's lock: whoever
/// holds the lock — the worker's thread, or a caller carrying hot actions out itself — uses
/// the executor, one at a time. Also remembers until when the thread sleeps, so a caller that
/// leaves a frame due earlier (a paced touch) wakes it, and no other caller does.
struct ExecutorDesk<Executor: ActionExecutor> {
    /// What a caller's turn came to.
    enum CallerOutcome: Sendable {
        /// Not carried out: the caller queues its actions.
        case declined
        case done
        /// Done, and the executor has something due before the thread would wake: wake it.
        case doneWakingWorker
    }

    private(set) var executor: Executor
    /// The items taken from the queue, reused batch after batch (no allocation once warm).
    private var batch: [WorkItem] = []
    /// When the thread wakes by itself (its deadline; infinity: only when woken); nil while it
    /// works.
    private var sleepsUntil: Double? = nil

    init(executor: Executor, capacity: Int) {
        self.executor = executor
        batch.reserveCapacity(capacity)
    }

    /// The thread is about to sleep: until the executor's next deadline (nil: until woken).
    mutating func waitingUntil() -> Double? {
        let deadline = executor.nextDeadline
        sleepsUntil = deadline ?? .infinity
        return deadline
    }

    /// The thread's turn: what is due by `now`, then everything queued in `mailbox`, in order,
    /// flushed. Returns the actions the queue dropped since the last turn, and whether the
    /// worker is stopping.
    mutating func carryOutQueued(from mailbox: WorkerMailbox<ActionQueue>, now: Double) -> (dropped: Int, stopping: Bool) {
        sleepsUntil = nil
        executor.advance(to: now)
        let (dropped, stopping) = mailbox.take { queue -> Int in
            queue.take(into: &batch)
            return queue.takeDropCount()
        }
        for item in batch {
            switch item {
            case .action(let action): executor.execute(action)
            case .releaseAll: executor.releaseAll()
            case .barrier(let done):
                executor.flush()
                done.signal()
            }
        }
        executor.flush()
        batch.removeAll(keepingCapacity: true)
        return (dropped, stopping)
    }

    /// A caller's turn: what is due by `now`, then `actions`, flushed.
    mutating func carryOut(_ actions: ArraySlice<HostAction>, now: Double) -> CallerOutcome {
        executor.advance(to: now)
        for action in actions { executor.execute(action) }
        executor.flush()
        guard let due = executor.nextDeadline, let sleepsUntil, due < sleepsUntil else { return .done }
        self.sleepsUntil = due
        return .doneWakingWorker
    }

    /// Releases everything and frees the device: the last call.
    mutating func close() {
        executor.close()
    }
}
