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
/// and wake the thread once per batch; they never block on the device. The thread (a
/// `WorkerThread`) makes the executor at its first turn, then sleeps until woken or until the
/// executor's next deadline (no polling), takes everything queued at once (swapping buffers, no
/// allocation once warm), carries it out in order and flushes. `stop` drains the queue,
/// releases what is held, closes the device and waits for the thread.
///
/// **On the caller** (`onCaller`, for devices whose writes never wait: uinput): when the thread
/// is idle and nothing is queued, `perform` carries the hot actions (motion, buttons, wheel,
/// keys, touches) out itself, under the lock the thread holds while it works — so a touch
/// reaches the device in the call that parsed it, with no hand-off to a thread the scheduler
/// may not run for milliseconds (BENCHMARKS.md, "The touchpad backend"). The lock is only ever
/// tried there, never waited for: if the thread is busy, or something waits in the queue, the
/// actions are queued behind it, so the order is kept. Text, a touch surface (which may make
/// the device) and the markers always go through the thread.
public final class ActionWorker<Executor: ActionExecutor>: Sendable {
    private let mailbox: WorkerMailbox<ActionQueue>
    /// The executor, once made on the thread, and who may use it now.
    private let desk: Mutex<ExecutorDesk<Executor>?>
    private let onCaller: Bool
    private let thread: WorkerThread
    private let logger: Logger
    /// How long `stop` waits for the thread before giving up on it (a hung X server).
    private let stopTimeout: Double
    /// The time the executor is handed and the thread sleeps on, ms: the server's one time base
    /// (`SystemWorkerClock`, `MonotonicClock` as the hub's `now`); tests give a virtual one.
    private let clock: any WorkerClock

    /// Starts the thread and makes the executor on it (the device is opened there). Throws
    /// what `makeExecutor` throws.
    ///
    /// - Parameters:
    ///   - name: the thread's name (`gp-x11`: at most 15 bytes, the kernel keeps no more).
    ///   - capacity: how many queued items make motion and wheel drop (see `ActionQueue`).
    ///   - stopTimeout: seconds `stop` waits for the thread.
    ///   - onCaller: the executor's writes never wait (a uinput device: the kernel takes the
    ///     events or drops them), so `perform` may carry hot actions out on the caller's thread
    ///     when the worker is idle. Never for a device behind a socket (X11, Wayland).
    ///   - clock: the clock the executor's times and deadlines are on, ms.
    public init(
        name: String, capacity: Int = 1024, stopTimeout: Double = 2, onCaller: Bool = false,
        clock: any WorkerClock = SystemWorkerClock(), logger: Logger,
        makeExecutor: @escaping @Sendable () throws -> Executor
    ) throws {
        self.clock = clock
        let thread = WorkerThread(name: name, clock: clock)
        self.thread = thread
        mailbox = WorkerMailbox(ActionQueue(capacity: capacity)) { thread.wake() }
        desk = Mutex(nil)
        self.onCaller = onCaller
        self.logger = logger
        self.stopTimeout = stopTimeout
        let ready = DispatchSemaphore(value: 0)
        let startupError = Mutex<(any Error)?>(nil)
        let started = ThreadConfined(false)
        // Weak: the thread keeps its turn after it ends; the worker must not keep itself.
        thread.setTurn { [weak self] in
            guard let self else { return .exit }
            return started.withValue { started in
                guard !started else { return turn() }
                started = true
                let first = make(makeExecutor)
                startupError.withLock { $0 = first.error }
                ready.signal()
                // Nothing is queued before `init` returns: sleep until the first wake-up, or
                // until the executor's first deadline (wlroots checks its compositor).
                return first.error == nil ? sleeping(until: first.deadline) : .exit
            }
        }
        thread.wake()
        ready.wait()
        if let error = startupError.withLock({ $0 }) { throw error }
    }

    /// Carries `actions` out after those of earlier calls: on the caller when it may (see the
    /// type), else queued. Never blocks; drops what a full queue cannot take (see
    /// `ActionQueue`). Ignored once `stop` was called.
    public func perform(_ actions: ArraySlice<HostAction>) {
        guard !actions.isEmpty else { return }
        if onCaller, carryOutHere(actions) { return }
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
        if !thread.join(timeout: stopTimeout) {
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

    /// Carries `actions` out on this thread if the worker is idle, nothing is queued and every
    /// action is a hot one; false (nothing done) otherwise.
    private func carryOutHere(_ actions: ArraySlice<HostAction>) -> Bool {
        guard actions.allSatisfy(\.isHot) else { return false }
        let outcome = desk.withLockIfAvailable { desk -> ExecutorDesk<Executor>.CallerOutcome in
            guard mailbox.read(\.isEmpty), !mailbox.isStopping else { return .declined }
            return desk?.carryOut(actions, now: clock.now) ?? .declined
        }
        switch outcome {
        case nil, .declined?: return false
        case .done?: return true
        case .doneWakingWorker?:
            thread.wake()
            return true
        }
    }

    /// Makes the executor (the thread's first turn): why it could not be made, or its first
    /// deadline.
    private func make(_ makeExecutor: @Sendable () throws -> Executor) -> (error: (any Error)?, deadline: Double?) {
        let capacity = mailbox.read { $0.reservedCapacity }
        return desk.withLock { desk -> ((any Error)?, Double?) in
            do {
                desk = ExecutorDesk(executor: try makeExecutor(), capacity: capacity)
                return (nil, desk?.waitingUntil())
            } catch {
                return (error, nil)
            }
        }
    }

    /// One turn of the thread: what is due, then everything queued, in order; then sleep until
    /// the executor's next deadline or a wake-up — or, once stopping, close the device and end.
    private func turn() -> WorkerTurn {
        let (dropped, stopping, deadline) = desk.withLock { desk -> (Int, Bool, Double?) in
            guard let (dropped, stopping) = desk?.carryOutQueued(from: mailbox, now: clock.now) else {
                return (0, true, nil)
            }
            if stopping {
                desk?.close()
                desk = nil
                return (dropped, true, nil)
            }
            return (dropped, false, desk?.waitingUntil())
        }
        if dropped > 0 {
            logger.warning("control: dropped \(dropped) actions (motion and wheel first): the device is not keeping up")
        }
        return stopping ? .exit : sleeping(until: deadline)
    }

    /// Sleep until `deadline` (the worker's clock, ms; nil or not finite: until woken).
    private func sleeping(until deadline: Double?) -> WorkerTurn {
        guard let deadline, deadline.isFinite else { return .sleep(until: nil) }
        return .sleep(until: deadline)
    }
}

extension HostAction {
    /// Motion, buttons, wheel, keys and touches: what a caller may carry out itself (one short
    /// write). Text (many keys, perhaps a keymap) and a touch surface (perhaps a new device)
    /// go through the worker's thread.
    var isHot: Bool {
        switch self {
        case .motion, .button, .wheel, .wheelStop, .key, .contact: true
        case .text, .touchSurface, .spotlight: false
        }
    }
}
