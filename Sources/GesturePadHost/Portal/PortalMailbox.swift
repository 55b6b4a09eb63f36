import Dispatch
import GestureControl
import Synchronization

/// What the server's thread hands the portal backend's thread: the bounded action queue
/// (`ActionQueue`: motion and wheel shed first, releases never), a request for control, and
/// the stop. Posting copies under a short lock and wakes the thread through its eventfd once
/// per batch; it never waits on the bus.
final class PortalMailbox: Sendable {
    /// What the thread takes at once.
    struct Taken {
        var requestControl = false
        var stopping = false
        /// Actions dropped (queue full) since the last take.
        var dropped = 0
    }

    private struct State {
        var queue: ActionQueue
        var wakePending = false
        var requestControl = false
        var stopping = false
    }

    private let state: Mutex<State>
    let wakeup: EventWakeup

    init(capacity: Int) throws {
        state = Mutex(State(queue: ActionQueue(capacity: capacity)))
        wakeup = try EventWakeup()
    }

    /// Storage to reserve for a batch.
    var reservedCapacity: Int { state.withLock { $0.queue.reservedCapacity } }

    /// Queues `actions` (ignored once stopping).
    func post(_ actions: ArraySlice<HostAction>) {
        post { s in
            for action in actions { s.queue.append(action) }
        }
    }

    /// Queues a marker (`releaseAll`, a barrier); false once stopping.
    @discardableResult
    func post(marker: WorkItem) -> Bool {
        post { $0.queue.append(marker: marker) }
    }

    func postRequestControl() {
        post { $0.requestControl = true }
    }

    /// Asks the thread to stop; true for the first call.
    func postStop() -> Bool {
        let first = state.withLock { s -> Bool in
            defer { s.stopping = true }
            return !s.stopping
        }
        if first { wakeup.signal() }
        return first
    }

    /// Moves everything queued into `batch` (empty) and returns the flags. Consumes the
    /// wake-ups first, so one posted after this is not lost.
    func take(into batch: inout [WorkItem]) -> Taken {
        wakeup.drain()
        return state.withLock { s in
            s.wakePending = false
            s.queue.take(into: &batch)
            defer { s.requestControl = false }
            return Taken(requestControl: s.requestControl, stopping: s.stopping, dropped: s.queue.takeDropCount())
        }
    }

    @discardableResult
    private func post(_ change: (inout State) -> Void) -> Bool {
        let (accepted, signal) = state.withLock { s -> (Bool, Bool) in
            guard !s.stopping else { return (false, false) }
            change(&s)
            defer { s.wakePending = true }
            return (true, !s.wakePending)
        }
        if signal { wakeup.signal() }
        return accepted
    }
}
