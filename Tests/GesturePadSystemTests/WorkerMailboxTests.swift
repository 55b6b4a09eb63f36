import Synchronization
import Testing

@testable import GesturePadSystem

/// The one mailbox of the host's worker threads: a wake-up per batch, nothing after the stop.
@Suite struct WorkerMailboxTests {
    /// Posts before the thread takes share one wake-up; a post after the take wakes it again;
    /// the take hands over everything posted, in order.
    @Test func oneWakeupPerBatch() {
        let wakes = Mutex(0)
        let mailbox = WorkerMailbox<[Int]>([]) { wakes.withLock { $0 += 1 } }
        #expect(mailbox.post { $0.append(1) })
        #expect(mailbox.post { $0.append(2) })
        #expect(wakes.withLock { $0 } == 1)
        let first = mailbox.take { items in
            defer { items.removeAll() }
            return items
        }
        #expect(first.taken == [1, 2] && !first.stopping)
        mailbox.post { $0.append(3) }
        #expect(wakes.withLock { $0 } == 2)
    }

    /// The stop wakes the thread once and is taken with what was posted before it; later posts
    /// are refused.
    @Test func stopRefusesLaterPosts() {
        let wakes = Mutex(0)
        let mailbox = WorkerMailbox<[Int]>([]) { wakes.withLock { $0 += 1 } }
        mailbox.post { $0.append(1) }
        _ = mailbox.take { $0.count }
        #expect(mailbox.stop())
        #expect(!mailbox.stop())
        #expect(!mailbox.post { $0.append(2) })
        #expect(wakes.withLock { $0 } == 2)
        let last = mailbox.take { items in items }
        #expect(last.taken == [1] && last.stopping)
    }
}
