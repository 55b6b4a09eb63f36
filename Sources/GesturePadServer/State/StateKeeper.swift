import FoundationEssentials
import GesturePadSystem
import Synchronization

/// The running server's state-file I/O, on a thread of its own: `devices.json` (its lock, read,
/// conditional write and fsync) and `server.json` (who is connected). The service thread only
/// posts requests and takes results between two service passes, so no connection waits for
/// the disk or for another process's lock (docs/server.md "The state directory").
///
/// The thread is a `WorkerThread` fed by a `WorkerMailbox` of jobs; each turn takes every job
/// at once, carries them out and sleeps until the next post. The outcomes go back through a
/// second `WorkerMailbox`, whose wake-up is the service loop's.
final class StateKeeper: Sendable {
    /// What the keeper did, for the service thread.
    enum Outcome: Sendable {
        /// `list` was written; the file is now at `version`.
        case saved(DeviceList, version: DeviceStore.FileVersion?)
        /// The file as it is: it changed since the server's last look (a conditional write
        /// found it so), or `requested` (SIGUSR1).
        case read(DeviceStore.Contents, version: DeviceStore.FileVersion?, requested: Bool)
        /// A write failed (one line for the log).
        case failed(String)
    }

    /// What is asked of the thread: one of each at most (a newer request replaces the last).
    private struct Jobs: Sendable {
        var save: (list: DeviceList, basedOn: DeviceStore.FileVersion?)?
        var read = false
        var presence: DevicePresence?
    }

    private let store: DeviceStore
    private let presence: (@Sendable (DevicePresence) -> Void)?
    private let jobs: WorkerMailbox<Jobs>
    private let outcomes: WorkerMailbox<[Outcome]>
    private let thread: WorkerThread
    private let started = Atomic<Bool>(false)

    /// `wake` is called (on the keeper's thread) when an outcome is posted and the service
    /// thread has not taken since the last one: it wakes the service loop, which takes them
    /// all. `presence` writes `server.json`'s connected devices, on the keeper's thread.
    init(store: DeviceStore, presence: (@Sendable (DevicePresence) -> Void)?, wake: @escaping @Sendable () -> Void) {
        self.store = store
        self.presence = presence
        let thread = WorkerThread(name: "gp-state")
        self.thread = thread
        jobs = WorkerMailbox(Jobs()) { thread.wake() }
        outcomes = WorkerMailbox([], wake: wake)
    }

    /// Lets the thread run: it starts now if something is queued, else at the first request.
    /// Requests made before are kept. Later calls do nothing.
    func start() {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // Weak: the thread keeps its turn after it ends; the keeper must not keep itself.
        thread.setTurn { [weak self] in self?.turn() ?? .exit }
    }

    /// Write `list` if the file is still at `basedOn` (else the file comes back as `.read`).
    /// A newer save replaces one not yet started.
    func save(_ list: DeviceList, basedOn version: DeviceStore.FileVersion?) {
        jobs.post { $0.save = (list, version) }
    }

    /// Read the file (`gesturepad devices` changed it).
    func read() {
        jobs.post { $0.read = true }
    }

    /// The paired devices connected now and the reloads taken in (only the latest is written).
    func publish(_ presence: DevicePresence) {
        jobs.post { $0.presence = presence }
    }

    /// What happened since the last call, in order.
    func take() -> [Outcome] {
        outcomes.take { list in
            defer { list.removeAll() }
            return list
        }.taken
    }

    /// Carries out what is queued, then ends the thread; waits up to `timeout` seconds.
    /// Returns false when the thread did not finish in time (a lock held elsewhere).
    @discardableResult
    func stop(timeout: Double = 5) -> Bool {
        guard started.load(ordering: .acquiring), jobs.stop() else { return true }
        return thread.join(timeout: timeout)
    }

    /// One turn of the thread: every job queued (the latest save, a read, the latest
    /// presence), then sleep until the next request — or, once stopping, end: the take that
    /// says so holds everything posted before the stop.
    private func turn() -> WorkerTurn {
        let (taken, stopping) = jobs.take { current -> Jobs in
            defer { current = Jobs() }
            return current
        }
        if let save = taken.save { record(write(save.list, basedOn: save.basedOn)) }
        if taken.read { record(.read(store.read(), version: store.version(), requested: true)) }
        if let current = taken.presence { presence?(current) }
        return stopping ? .exit : .sleep(until: nil)
    }

    private func record(_ outcome: Outcome) {
        outcomes.post { $0.append(outcome) }
    }

    /// Under the lock: writes `list` when the file is at `basedOn`, else reads it back.
    private func write(_ list: DeviceList, basedOn: DeviceStore.FileVersion?) -> Outcome {
        do {
            return try store.withLock {
                let now = store.version()
                guard now == basedOn else { return .read(store.read(), version: now, requested: false) }
                try store.write(list)
                return .saved(list, version: store.version())
            }
        } catch {
            return .failed("\(error)")
        }
    }
}
