import GestureControl
import Testing

@testable import GesturePadHost

/// The portal thread's mailbox: actions in order with the flags, nothing after the stop.
@Suite struct PortalMailboxTests {
    @Test func takesActionsAndFlagsInOrder() throws {
        let mailbox = try PortalMailbox(capacity: 8)
        mailbox.post([.motion(dx: 1, dy: 0), .button(.left, .down)][...])
        mailbox.postRequestControl()
        mailbox.post(marker: .releaseAll)
        var batch: [WorkItem] = []
        let taken = mailbox.take(into: &batch)
        #expect(taken.requestControl && !taken.stopping && taken.dropped == 0)
        #expect(batch.count == 3)
        if case .action(let first) = batch[0] { #expect(first == .motion(dx: 1, dy: 0)) } else { Issue.record("\(batch)") }
        if case .releaseAll = batch[2] {} else { Issue.record("releaseAll not last: \(batch)") }
        batch.removeAll()
        #expect(!mailbox.take(into: &batch).requestControl)
        #expect(batch.isEmpty)
    }

    /// After the stop nothing more is queued, and only the first stop counts.
    @Test func stopRefusesLaterPosts() throws {
        let mailbox = try PortalMailbox(capacity: 8)
        #expect(mailbox.postStop())
        #expect(!mailbox.postStop())
        mailbox.post([.motion(dx: 1, dy: 1)][...])
        #expect(!mailbox.post(marker: .releaseAll))
        var batch: [WorkItem] = []
        #expect(mailbox.take(into: &batch).stopping)
        #expect(batch.isEmpty)
    }

    /// A full queue sheds motion but keeps releases, and reports what it dropped.
    @Test func fullQueueDropsMotionNotReleases() throws {
        let mailbox = try PortalMailbox(capacity: 2)
        mailbox.post([HostAction](repeating: .motion(dx: 1, dy: 0), count: 5)[...])
        mailbox.post([.button(.left, .up)][...])
        var batch: [WorkItem] = []
        let taken = mailbox.take(into: &batch)
        #expect(taken.dropped == 3)
        #expect(batch.count == 3)
    }
}
