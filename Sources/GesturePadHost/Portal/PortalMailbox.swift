import Dispatch
import GestureControl
import GesturePadSystem

/// What the server's thread hands the portal backend's thread: the bounded action queue
/// (`ActionQueue`: motion and wheel shed first, releases never), a request for control, and
/// the stop — a `WorkerMailbox` whose wake-up is the eventfd the thread polls beside the bus.
/// Posting copies under a short lock and wakes the thread once per batch; it never waits on
/// the bus.
final class PortalMailbox: Sendable {
    /// What the thread takes at once.
    struct Taken: Sendable {
        var requestControl = false
        var stopping = false
        /// Actions dropped (queue full) since the last take.
        var dropped = 0
    }

    private struct Contents: Sendable {
        var queue: ActionQueue
        var requestControl = false
    }

    private let mailbox: WorkerMailbox<Contents>
    let wakeup: EventWakeup

    init(capacity: Int) throws {
        let wakeup = try EventWakeup()
        self.wakeup = wakeup
        mailbox = WorkerMailbox(Contents(queue: ActionQueue(capacity: capacity))) { wakeup.signal() }
    }

    /// Storage to reserve for a batch.
    var reservedCapacity: Int { mailbox.read { $0.queue.reservedCapacity } }

    /// Queues `actions` (ignored once stopping).
    func post(_ actions: ArraySlice<HostAction>) {
        mailbox.post { contents in
            for action in actions { contents.queue.append(action) }
        }
    }

    /// Queues a marker (`releaseAll`, a barrier); false once stopping.
    @discardableResult
    func post(marker: WorkItem) -> Bool {
        mailbox.post { $0.queue.append(marker: marker) }
    }

    func postRequestControl() {
        mailbox.post { $0.requestControl = true }
    }

    /// Asks the thread to stop; true for the first call.
    func postStop() -> Bool {
        mailbox.stop()
    }

    /// Moves everything queued into `batch` (empty) and returns the flags. Consumes the
    /// wake-ups first, so one posted after this is not lost.
    func take(into batch: inout [WorkItem]) -> Taken {
        wakeup.drain()
        let (taken, stopping) = mailbox.take { contents -> Taken in
            contents.queue.take(into: &batch)
            defer { contents.requestControl = false }
            return Taken(requestControl: contents.requestControl, dropped: contents.queue.takeDropCount())
        }
        var result = taken
        result.stopping = stopping
        return result
    }
}
