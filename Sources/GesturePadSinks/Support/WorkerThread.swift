import Dispatch
import FoundationEssentials
import GesturePadSystem
import Synchronization

/// One dedicated thread: the sinks' only concurrency model. It runs plain calls (a
/// `BackgroundWorker`'s drain: the logs, the recorder), a hook's async work
/// (`Task(executorPreference:)`) and timers, so no sink ever waits for a thread of Swift's
/// cooperative pool: a test or a server that keeps those threads busy cannot delay a log
/// line, a hook's start, its timeout or its restart.
///
/// Timers are deadlines on the worker's `WorkerClock`; the thread sleeps until the earliest
/// one (or new work) and never polls. The thread ends once `stop()` was called and nothing is
/// queued; work that arrives later starts a fresh thread, so no job is ever lost.
final class WorkerThread: TaskExecutor, Sendable {
    private struct Timer {
        var id: Int
        var deadline: ContinuousClock.Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    /// What the thread runs: a task's job, or a plain call (a `BackgroundWorker`'s drain).
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
        var running = false
        var stopping = false
    }

    let name: String
    let clock: any WorkerClock
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)

    init(name: String, clock: any WorkerClock = SystemWorkerClock()) {
        self.name = name
        self.clock = clock
    }

    func enqueue(_ job: consuming ExecutorJob) {
        submit(.job(UnownedJob(job)))
    }

    /// Runs `work` on the thread, after what is queued.
    func execute(_ work: @escaping @Sendable () -> Void) {
        submit(.call(work))
    }

    private func submit(_ work: Work) {
        let start = state.withLock { s -> Bool in
            s.jobs.append(work)
            return startIfNeeded(&s)
        }
        if start { launch() } else { wake.signal() }
    }

    /// Suspends until the clock reaches `deadline`; throws `CancellationError` when the task is
    /// cancelled first.
    func sleep(until deadline: ContinuousClock.Instant) async throws {
        let id = state.withLock { s -> Int in
            defer { s.nextTimer += 1 }
            s.unregistered[s.nextTimer] = false
            return s.nextTimer
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let registered = state.withLock { s -> Bool? in
                    guard s.unregistered.removeValue(forKey: id) == false else { return nil }
                    s.timers.append(Timer(id: id, deadline: deadline, continuation: continuation))
                    return startIfNeeded(&s)
                }
                switch registered {
                case nil: continuation.resume(throwing: CancellationError())
                case true?: launch()
                case false?: wake.signal()
                }
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
    func poke() { wake.signal() }

    /// Lets the thread end once it has nothing left to run.
    func stop() {
        state.withLock { $0.stopping = true }
        wake.signal()
    }

    private func startIfNeeded(_ s: inout State) -> Bool {
        guard !s.running else { return false }
        s.running = true
        return true
    }

    private func launch() {
        let thread = SystemThread { [self] in run() }
        thread.name = name
        thread.start()
    }

    private func run() {
        var jobs: [Work] = []
        while true {
            let now = clock.now
            let (due, next, finished) = state.withLock { s -> ([Timer], ContinuousClock.Instant?, Bool) in
                swap(&jobs, &s.jobs)
                let due = s.timers.filter { $0.deadline <= now }
                s.timers.removeAll { $0.deadline <= now }
                let finished = s.stopping && jobs.isEmpty && due.isEmpty && s.timers.isEmpty
                if finished { s.running = false }
                return (due, s.timers.map(\.deadline).min(), finished)
            }
            if finished { return }
            for timer in due { timer.continuation.resume() }
            for work in jobs {
                switch work {
                case .job(let job): job.runSynchronously(on: asUnownedTaskExecutor())
                case .call(let call): call()
                }
            }
            guard jobs.isEmpty, due.isEmpty else {
                jobs.removeAll(keepingCapacity: true)
                continue
            }
            if let next {
                let wait = (next - clock.now).nonNegativeSeconds
                _ = wake.wait(timeout: .now() + .nanoseconds(Int(min(wait, 60) * 1e9 + 1)))
            } else {
                wake.wait()
            }
        }
    }
}
