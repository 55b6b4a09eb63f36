import FoundationEssentials
import GesturePadSystem
import Synchronization

/// The sinks' only concurrency model: a `TaskExecutor` on one `WorkerThread`. It runs plain
/// calls, a hook's async work (`Task(executorPreference:)`) and timers, so no sink ever waits
/// for a thread of Swift's cooperative pool: a test or a server that keeps those threads busy
/// cannot delay a hook's start, its timeout or its restart.
///
/// Timers are deadlines on the thread's `WorkerClock`; each turn runs what is queued and what
/// is due, then sleeps until the earliest deadline (or new work). The thread ends once `stop()`
/// was called and nothing is queued; work that arrives later starts a fresh thread, so no job
/// is ever lost.
final class WorkerExecutor: TaskExecutor, Sendable {
    private struct Timer {
        var id: Int
        var deadline: Double
        var continuation: CheckedContinuation<Void, any Error>
    }

    /// What the thread runs: a task's job, or a plain call.
    private enum Work {
        case job(UnownedJob)
        case call(@Sendable () -> Void)
    }

    private struct State {
        var jobs: [Work] = []
        var timers: [Timer] = []
        var nextTimer = 0
        /// Sleeps begun whose timer is not registered yet, and whether their task was
        /// cancelled meanwhile (then the timer is never registered). A sleep leaves this table
        /// when it registers, so a cancellation that comes after its timer fired finds it in
        /// neither table and leaves nothing behind.
        var unregistered: [Int: Bool] = [:]
        var stopping = false
    }

    private let thread: WorkerThread
    private let state = Mutex(State())
    /// The turn's job buffer, swapped with the queue (touched on the thread only).
    private let taken = ThreadConfined<[Work]>([])

    init(name: String, clock: any WorkerClock = SystemWorkerClock()) {
        thread = WorkerThread(name: name, clock: clock)
        thread.setTurn { [weak self] in self?.turn() ?? .idle }
    }

    /// The clock the timers follow.
    var clock: any WorkerClock { thread.clock }

    func enqueue(_ job: consuming ExecutorJob) {
        submit(.job(UnownedJob(job)))
    }

    /// Runs `work` on the thread, after what is queued.
    func execute(_ work: @escaping @Sendable () -> Void) {
        submit(.call(work))
    }

    private func submit(_ work: Work) {
        state.withLock { $0.jobs.append(work) }
        thread.wake()
    }

    /// Suspends until the clock reaches `deadline` (its milliseconds); throws
    /// `CancellationError` when the task is cancelled first.
    func sleep(until deadline: Double) async throws {
        let id = state.withLock { s -> Int in
            defer { s.nextTimer += 1 }
            s.unregistered[s.nextTimer] = false
            return s.nextTimer
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let registered = state.withLock { s -> Bool in
                    guard s.unregistered.removeValue(forKey: id) == false else { return false }
                    s.timers.append(Timer(id: id, deadline: deadline, continuation: continuation))
                    return true
                }
                if registered { thread.wake() } else { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let cancelled = state.withLock { s -> Timer? in
                guard let index = s.timers.firstIndex(where: { $0.id == id }) else {
                    // Not registered yet: it never will be. Registered and fired: nothing to do.
                    if s.unregistered[id] != nil { s.unregistered[id] = true }
                    return nil
                }
                return s.timers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Sleeps begun and not registered, plus timers waiting (tests: nothing is left behind).
    var pendingSleeps: Int { state.withLock { $0.unregistered.count + $0.timers.count } }

    /// Wakes the thread to look at the clock again (a manual clock was advanced).
    func poke() { thread.wake() }

    /// Lets the thread end once it has nothing left to run.
    func stop() {
        state.withLock { $0.stopping = true }
        thread.wake()
    }

    /// One turn of the thread: the jobs queued and the timers due, then what to wait for.
    private func turn() -> WorkerTurn {
        let now = thread.clock.now
        let (due, next, finished) = taken.withValue { jobs in
            state.withLock { s -> ([Timer], Double?, Bool) in
                swap(&jobs, &s.jobs)
                let due = s.timers.filter { $0.deadline <= now }
                s.timers.removeAll { $0.deadline <= now }
                let finished = s.stopping && jobs.isEmpty && due.isEmpty && s.timers.isEmpty
                return (due, s.timers.map(\.deadline).min(), finished)
            }
        }
        if finished { return .idle }
        for timer in due { timer.continuation.resume() }
        let ran = taken.withValue { jobs -> Bool in
            defer { jobs.removeAll(keepingCapacity: true) }
            for work in jobs {
                switch work {
                case .job(let job): job.runSynchronously(on: asUnownedTaskExecutor())
                case .call(let call): call()
                }
            }
            return !jobs.isEmpty
        }
        return ran || !due.isEmpty ? .again : .sleep(until: next)
    }
}
