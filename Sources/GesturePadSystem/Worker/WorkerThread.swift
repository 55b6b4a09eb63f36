import Dispatch
import Synchronization

/// What a `WorkerThread`'s turn asks for next.
public enum WorkerTurn: Sendable, Equatable {
    /// Take another turn at once (work came in while this one ran, or the turn waited by
    /// itself: see `WorkerThread.start()`).
    case again
    /// Sleep until woken (`wake()`) or until the thread's clock reaches `deadline`, in its
    /// milliseconds (nil: until woken), then take another turn.
    case sleep(until: Double?)
    /// Nothing left to do: the thread ends — unless it was woken since this turn began, then
    /// it takes another. A later `wake()` starts a new thread, so no work is ever lost.
    case idle
    /// The thread ends for good (its owner stopped): later wake-ups are ignored.
    case exit
}

/// The one worker thread of the server: a dedicated thread (never one of Swift's cooperative
/// pool) that takes turns, woken by a semaphore, and sleeps between them until woken or until
/// a deadline on its injectable `WorkerClock` — it never looks again on a timer of its own.
/// Its owner says what a turn does (`setTurn`); other threads call `wake()`. The usual owner
/// pairs it with a `WorkerMailbox` whose wake-up is `wake()`, keeps its own state in a
/// `ThreadConfined` made at the first turn, and each turn takes the mailbox, carries out what
/// it took and answers `.sleep(until:)` its earliest deadline, or `.exit` once the take says
/// it is stopping; its `stop` is the mailbox's `stop()` then `join(timeout:)`.
///
/// It starts on the first `wake()` and ends when a turn answers `.idle` (a later wake starts
/// it again) or `.exit` (for good). The sinks' `WorkerExecutor` (hooks' tasks and timers) and
/// `BackgroundWorker` (logs, recorder), the host's device loop (`ActionWorker`) and the
/// server's state files (`StateKeeper`) run on it. The portal's bus thread and the desktop
/// notifier's do too, but their turns wait by themselves: each handles what is ready, then
/// blocks in a `poll` on the bus's descriptor beside an eventfd its `WorkerMailbox` signals
/// (which a semaphore cannot replace) and answers `.again`; their owner starts them with
/// `start()`, not `wake()`.
///
/// With a manual clock, a test advances the clock and calls `wake()`: the sleeping thread
/// looks at the clock again at once.
public final class WorkerThread: Sendable {
    private struct State {
        var turn: (@Sendable () -> WorkerTurn)?
        var running = false
        /// Woken since the current turn began (or before a turn was set).
        var woken = false
        var exited = false
    }

    /// The thread's name as the system shows it (its first 15 bytes).
    public let name: String
    /// The clock deadlines are read on.
    public let clock: any WorkerClock
    private let state = Mutex(State())
    private let semaphore = DispatchSemaphore(value: 0)
    /// Signalled when a turn answered `.exit` (and again by each `join` that saw it).
    private let ended = DispatchSemaphore(value: 0)

    public init(name: String, clock: any WorkerClock = SystemWorkerClock()) {
        self.name = SystemThread.systemName(name)
        self.clock = clock
    }

    /// Sets what each turn does (once, usually right after `init`); it runs on the thread
    /// only, one turn after another, so it may keep thread-confined state. A `wake()` that came
    /// before starts the thread now.
    public func setTurn(_ turn: @escaping @Sendable () -> WorkerTurn) {
        let launch = state.withLock { s -> Bool in
            s.turn = turn
            guard s.woken, !s.running, !s.exited else { return false }
            s.running = true
            return true
        }
        if launch { spawn(turn) }
    }

    /// Starts the thread when it is not running, or wakes it from its sleep. From any thread;
    /// never blocks. Ignored after a turn answered `.exit`.
    public func wake() {
        if !launch() { semaphore.signal() }
    }

    /// Starts the thread when it is not running, and leaves a running one alone — for an owner
    /// whose turns wait by themselves: a `poll` on a bus's descriptor beside the eventfd its
    /// `WorkerMailbox` signals, then `.again` (or `.exit` once the take says it is stopping).
    /// Such a thread is woken through that eventfd, not by `wake()`: a `start()` never cuts a
    /// `.sleep` short. From any thread; never blocks. Ignored after a turn answered `.exit`; a
    /// `start()` before `setTurn` is kept like a `wake()`.
    public func start() {
        _ = launch()
    }

    /// Whether a thread is running (it may be asleep).
    public var isRunning: Bool { state.withLock { $0.running } }

    /// Waits up to `timeout` seconds for a turn to answer `.exit` (the owner's stop: the
    /// thread finished what it had); false if it did not in time (a hung device).
    public func join(timeout: Double) -> Bool {
        guard ended.wait(timeout: .now() + max(0, min(timeout, 3_600))) == .success else { return false }
        ended.signal()
        return true
    }

    /// Marks the thread woken and starts it when it is not running; false when it was
    /// running (or ended for good, or has no turn yet).
    private func launch() -> Bool {
        let launch = state.withLock { s -> (@Sendable () -> WorkerTurn)? in
            s.woken = true
            guard !s.exited, !s.running, let turn = s.turn else { return nil }
            s.running = true
            return turn
        }
        guard let launch else { return false }
        spawn(launch)
        return true
    }

    private func spawn(_ turn: @escaping @Sendable () -> WorkerTurn) {
        let thread = SystemThread { [self] in run(turn) }
        thread.name = name
        thread.start()
    }

    private func run(_ turn: @Sendable () -> WorkerTurn) {
        while true {
            state.withLock { $0.woken = false }
            switch turn() {
            case .again: continue
            case .sleep(let deadline): sleep(until: deadline)
            case .idle:
                let end = state.withLock { s -> Bool in
                    guard !s.woken else { return false }
                    s.running = false
                    return true
                }
                if end { return }
            case .exit:
                state.withLock { s in
                    s.exited = true
                    s.running = false
                }
                ended.signal()
                return
            }
        }
    }

    /// Waits on the semaphore until woken or until the clock reaches `deadline`. The real wait
    /// is at most a minute, after which the turn looks again (a manual clock that was advanced
    /// without a wake-up).
    private func sleep(until deadline: Double?) {
        guard let deadline else {
            semaphore.wait()
            return
        }
        let milliseconds = min(deadline - clock.now, 60_000)
        guard milliseconds > 0 else { return }
        _ = semaphore.wait(timeout: .now() + .nanoseconds(Int(milliseconds * 1e6) + 1))
    }
}
