import Dispatch
import FoundationEssentials
import GesturePadSystem
import Synchronization

/// The running server's state-file I/O, on a thread of its own: `devices.json` (its lock, read,
/// conditional write and fsync) and `server.json` (who is connected). The service thread only
/// posts requests and takes results between two service passes, so no connection waits for
/// the disk or for another process's lock (docs/server.md "The state directory").
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

    private struct Jobs: Sendable {
        var save: (list: DeviceList, basedOn: DeviceStore.FileVersion?)?
        var read = false
        var presence: DevicePresence?
        var stopping = false
        var isEmpty: Bool { save == nil && !read && presence == nil }
    }

    private let store: DeviceStore
    private let presence: (@Sendable (DevicePresence) -> Void)?
    private let wake: @Sendable () -> Void
    private let jobs = Mutex(Jobs())
    private let outcomes = Mutex<[Outcome]>([])
    private let signal = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let started = Atomic<Bool>(false)

    /// `wake` is called (on the keeper's thread) after each outcome is posted: it wakes the
    /// service loop. `presence` writes `server.json`'s connected devices, on the keeper's thread.
    init(store: DeviceStore, presence: (@Sendable (DevicePresence) -> Void)?, wake: @escaping @Sendable () -> Void) {
        self.store = store
        self.presence = presence
        self.wake = wake
    }

    func start() {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = SystemThread { [self] in
            run()
            finished.signal()
        }
        thread.name = "gesturepad-state"
        thread.start()
    }

    /// Write `list` if the file is still at `basedOn` (else the file comes back as `.read`).
    /// A newer save replaces one not yet started.
    func save(_ list: DeviceList, basedOn version: DeviceStore.FileVersion?) {
        post { $0.save = (list, version) }
    }

    /// Read the file (`gesturepad devices` changed it).
    func read() {
        post { $0.read = true }
    }

    /// The paired devices connected now and the reloads taken in (only the latest is written).
    func publish(_ presence: DevicePresence) {
        post { $0.presence = presence }
    }

    /// What happened since the last call, in order.
    func take() -> [Outcome] {
        outcomes.withLock { list in
            defer { list.removeAll() }
            return list
        }
    }

    /// Carries out what is queued, then ends the thread; waits up to `timeout` seconds.
    /// Returns false when the thread did not finish in time (a lock held elsewhere).
    @discardableResult
    func stop(timeout: Double = 5) -> Bool {
        guard started.load(ordering: .acquiring) else { return true }
        post { $0.stopping = true }
        return finished.wait(timeout: .now() + timeout) == .success
    }

    private func post(_ change: (inout Jobs) -> Void) {
        jobs.withLock { change(&$0) }
        signal.signal()
    }

    private func run() {
        while true {
            signal.wait()
            let taken = jobs.withLock { current -> Jobs in
                defer {
                    let stopping = current.stopping
                    current = Jobs()
                    current.stopping = stopping
                }
                return current
            }
            if let save = taken.save { record(write(save.list, basedOn: save.basedOn)) }
            if taken.read { record(.read(store.read(), version: store.version(), requested: true)) }
            if let current = taken.presence { presence?(current) }
            if taken.stopping && jobs.withLock({ $0.isEmpty }) { return }
        }
    }

    private func record(_ outcome: Outcome) {
        outcomes.withLock { $0.append(outcome) }
        wake()
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
