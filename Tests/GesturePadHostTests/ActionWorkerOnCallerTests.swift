import Dispatch
import GestureControl
import GesturePadSystem
import Glibc
import Logging
import Synchronization
import Testing

@testable import GesturePadHost

/// `ActionWorker(onCaller: true)` (the uinput and touchpad backends): hot actions carried out
/// in the caller's call when the worker is idle, the order kept otherwise.
@Suite struct ActionWorkerOnCallerTests {
    private let logger = Logger(label: "test.worker.caller")

    private func makeWorker(_ log: CallLog, onCaller: Bool = true) throws -> ActionWorker<RecordingExecutor> {
        try ActionWorker(name: "test-caller", capacity: 64, onCaller: onCaller, logger: logger) {
            RecordingExecutor(log: log)
        }
    }

    /// Idle worker, hot actions: done (and flushed) on the caller's thread before `perform`
    /// returns — no wait for the worker.
    @Test func hotActionsAreCarriedOutInTheCall() throws {
        let log = CallLog()
        let worker = try makeWorker(log)
        let actions: [HostAction] = [.motion(dx: 3, dy: 4), .button(.left, .down), .wheel(dx: 0, dy: 1)]
        worker.perform(actions[...])
        #expect(log.actions == actions)
        #expect(log.all.last == .flush)
        #expect(log.threads.allSatisfy { $0 == pthread_self() })
        worker.stop()
    }

    /// Without `onCaller` (x11, wlroots) nothing runs on the caller's thread.
    @Test func withoutOnCallerTheWorkerCarriesOut() throws {
        let log = CallLog()
        let worker = try makeWorker(log, onCaller: false)
        worker.perform([.motion(dx: 1, dy: 1)][...])
        #expect(worker.waitUntilDone())
        #expect(log.actions == [.motion(dx: 1, dy: 1)])
        #expect(!log.threads.contains(pthread_self()))
        worker.stop()
    }

    /// Text goes through the worker; hot actions that come while it works there (it holds the
    /// executor) are queued behind it, never carried out before it, and `perform` does not wait.
    @Test func aBusyWorkerKeepsTheOrder() throws {
        let blocker = HostAction.text("slow")
        let log = CallLog(blockingOn: blocker)
        let worker = try makeWorker(log)
        worker.perform([blocker][...])
        #expect(log.waitUntilBlocked())
        worker.perform([.button(.left, .down)][...])
        worker.perform([.motion(dx: 2, dy: 0)][...])
        #expect(log.actions == [blocker])
        log.open()
        #expect(worker.waitUntilDone())
        #expect(log.actions == [blocker, .button(.left, .down), .motion(dx: 2, dy: 0)])
        #expect(!log.threads.contains(pthread_self()))
        worker.stop()
    }

    /// A queued marker (`releaseAll`) keeps its place: what comes after it waits for it.
    @Test func somethingQueuedKeepsItsPlace() throws {
        let blocker = HostAction.text("slow")
        let log = CallLog(blockingOn: blocker)
        let worker = try makeWorker(log)
        worker.perform([blocker][...])
        #expect(log.waitUntilBlocked())
        worker.releaseAll()
        worker.perform([.key(.named(.shift), .down)][...])
        log.open()
        #expect(worker.waitUntilDone())
        let calls = log.all.filter { $0 != .flush }
        #expect(calls == [.execute(blocker), .releaseAll, .execute(.key(.named(.shift), .down))])
        worker.stop()
    }

    /// Once stopped, a caller carries nothing out.
    @Test func nothingAfterStop() throws {
        let log = CallLog()
        let worker = try makeWorker(log)
        worker.stop()
        worker.perform([.motion(dx: 9, dy: 9)][...])
        #expect(log.actions.isEmpty)
        #expect(log.all.last == .close)
    }

    /// A caller that leaves something due (a paced touch frame) wakes the sleeping worker,
    /// which writes it once due.
    @Test func aDeadlineLeftByTheCallerWakesTheWorker() throws {
        let written = DispatchSemaphore(value: 0)
        let worker = try ActionWorker(name: "test-caller-paced", onCaller: true, logger: logger) {
            PacedExecutor(written: written)
        }
        let contact = TouchContact(owner: 1, id: 1, phase: .move, x: 1, y: 1, t: 0)
        worker.perform([.contact(contact)][...])
        #expect(written.wait(timeout: .now() + 5) == .success)
        worker.stop()
    }
}

/// A deadline the executor has from the start (wlroots checks its compositor even when idle)
/// is kept with nothing performed: the worker's first sleep ends there.
@Suite struct ActionWorkerFirstDeadlineTests {
    @Test func theExecutorsFirstDeadlineIsKept() throws {
        let written = DispatchSemaphore(value: 0)
        let worker = try ActionWorker(name: "test-first-deadline", logger: Logger(label: "test.worker.deadline")) {
            PacedExecutor(written: written, dueAtStart: true)
        }
        #expect(written.wait(timeout: .now() + 5) == .success)
        worker.stop()
    }
}

/// Holds each contact for 2 ms of the worker's clock, then "writes" it (signals).
private final class PacedExecutor: ActionExecutor {
    private let written: DispatchSemaphore
    private var due: Double?

    init(written: DispatchSemaphore, dueAtStart: Bool = false) {
        self.written = written
        if dueAtStart { due = MonotonicClock.nowMilliseconds() + 2 }
    }

    func execute(_ action: HostAction) {
        if case .contact = action { due = MonotonicClock.nowMilliseconds() + 2 }
    }
    func flush() {}
    func releaseAll() {}
    func close() {}
    var nextDeadline: Double? { due }
    func advance(to now: Double) {
        guard let due, now >= due else { return }
        self.due = nil
        written.signal()
    }
}
