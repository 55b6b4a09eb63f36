import Dispatch
import FoundationEssentials
import GestureControl
import GesturePadSystem
import Logging
import Synchronization

/// Owns one `ActionExecutor` on a dedicated thread and feeds it from a bounded queue: the
/// engine of every `ControlBackend`.
///
/// `perform` and `releaseAll` only copy into the queue (a `WorkerMailbox`) under a short lock
/// and wake the thread once per batch; they never block on the device. The thread sleeps on a semaphore until woken (no polling),
/// takes everything queued at once (swapping buffers, no allocation once warm), carries it out
/// in order and flushes. `stop` drains the queue, releases what is held, closes the device and
/// waits for the thread.
public final class ActionWorker<Executor: ActionExecutor>: Sendable {
    private let mailbox: WorkerMailbox<ActionQueue>
    private let startupError = Mutex<(any Error)?>(nil)
    private let wake: DispatchSemaphore
    private let finished = DispatchSemaphore(value: 0)
    private let logger: Logger
    /// How long `stop` waits for the thread before giving up on it (a hung X server).
    private let stopTimeout: Double

    /// Starts the thread and makes the executor on it (so that every device call, opening
    /// included, happens on that one thread). Throws what `makeExecutor` throws.
    ///
    /// - Parameters:
    ///   - name: the thread's name (`gesturepad-x11`).
    ///   - capacity: how many queued items make motion and wheel drop (see `ActionQueue`).
    ///   - stopTimeout: seconds `stop` waits for the thread.
    public init(
        name: String, capacity: Int = 1024, stopTimeout: Double = 2, logger: Logger,
        makeExecutor: @escaping @Sendable () throws -> Executor
    ) throws {
        let wake = DispatchSemaphore(value: 0)
        self.wake = wake
        mailbox = WorkerMailbox(ActionQueue(capacity: capacity)) { wake.signal() }
        self.logger = logger
        self.stopTimeout = stopTimeout
        let ready = DispatchSemaphore(value: 0)
        let thread = SystemThread { [self] in
            run(makeExecutor: makeExecutor, ready: ready)
        }
        thread.name = name
        thread.start()
        ready.wait()
        if let error = startupError.withLock({ $0 }) { throw error }
    }

    /// Queues `actions` after those of earlier calls. Never blocks; drops what a full queue
    /// cannot take (see `ActionQueue`). Ignored once `stop` was called.
    public func perform(_ actions: ArraySlice<HostAction>) {
        guard !actions.isEmpty else { return }
        mailbox.post { queue in
            for action in actions { queue.append(action) }
        }
    }

    /// Releases every held button and key once the actions queued before are carried out.
    public func releaseAll() {
        enqueue(marker: .releaseAll)
    }

    /// Carries out what is queued, releases everything, closes the device and waits (up to
    /// the stop timeout) for the thread to end. Later calls return at once.
    public func stop() {
        guard mailbox.stop() else { return }
        if finished.wait(timeout: .now() + stopTimeout) == .timedOut {
            logger.error("control: the device thread did not stop within \(stopTimeout) s")
        }
    }

    /// Actions dropped because the queue was full, since the worker started.
    public var droppedActions: Int {
        mailbox.read { $0.droppedTotal }
    }

    /// Waits until everything queued so far is carried out and flushed. For tests and for
    /// callers that must know the device has seen the actions; false on timeout or once stopped.
    func waitUntilDone(timeout: Double = 5) -> Bool {
        let done = DispatchSemaphore(value: 0)
        guard enqueue(marker: .barrier(done)) else { return false }
        return done.wait(timeout: .now() + timeout) == .success
    }

    @discardableResult
    private func enqueue(marker: WorkItem) -> Bool {
        mailbox.post { $0.append(marker: marker) }
    }

    /// The worker's monotonic clock, ms (the clock `DispatchSemaphore.wait(timeout:)` uses).
    static func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1_000_000
    }

    /// The thread's body.
    private func run(makeExecutor: @Sendable () throws -> Executor, ready: DispatchSemaphore) {
        var executor: Executor
        do {
            executor = try makeExecutor()
        } catch {
            startupError.withLock { $0 = error }
            ready.signal()
            finished.signal()
            return
        }
        ready.signal()
        var batch: [WorkItem] = []
        batch.reserveCapacity(mailbox.read { $0.reservedCapacity })
        while true {
            if let deadline = executor.nextDeadline, deadline.isFinite {
                _ = wake.wait(timeout: DispatchTime(uptimeNanoseconds: UInt64(min(max(deadline, 0), 1e12) * 1_000_000)))
            } else {
                wake.wait()
            }
            executor.advance(to: Self.now())
            let (dropped, stopping) = mailbox.take { queue -> Int in
                queue.take(into: &batch)
                return queue.takeDropCount()
            }
            if dropped > 0 {
                logger.warning("control: dropped \(dropped) actions (motion and wheel first): the device is not keeping up")
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
            if stopping { break }
        }
        executor.close()
        finished.signal()
    }
}
