import Synchronization

/// What other threads hand one worker thread, and the one way they wake it: the host's
/// backends (`ActionWorker`'s device thread, the portal's bus thread), the desktop notifier,
/// the server's state files (`StateKeeper`: the jobs to its thread, the outcomes back to the
/// service loop) and the sinks' logs and recorder (`BackgroundWorker`) share it. Posting
/// changes `Contents` under a short lock and wakes the thread once per batch — not per post:
/// the thread takes everything at once, and only a post after that take wakes it again.
/// Nothing here blocks; how the thread waits is `wake`'s business: a `WorkerThread`'s `wake()`
/// where the thread has nothing else to wait on, an eventfd where it polls other descriptors
/// too (`WorkerThread.start()`), the service loop's own wake-up.
///
/// The thread's side: consume its wake-up signal, then `take` (so a post made after the take
/// wakes it again and none is lost), handle what it took, wait for the next signal.
public final class WorkerMailbox<Contents: Sendable>: Sendable {
    private struct State {
        var contents: Contents
        /// A wake-up was signalled and the thread has not taken since.
        var wakePending = false
        var stopping = false
    }

    private let state: Mutex<State>
    private let wake: @Sendable () -> Void

    /// `contents`: the empty queue; `wake`: signals the thread (from any thread, never blocks).
    public init(_ contents: Contents, wake: @escaping @Sendable () -> Void) {
        state = Mutex(State(contents: contents))
        self.wake = wake
    }

    /// Changes the contents (`change`) and wakes the thread if no wake-up is pending; ignored
    /// once stopping (false then).
    @discardableResult
    public func post(_ change: (inout Contents) -> Void) -> Bool {
        let (accepted, signal) = state.withLock { s -> (Bool, Bool) in
            guard !s.stopping else { return (false, false) }
            change(&s.contents)
            defer { s.wakePending = true }
            return (true, !s.wakePending)
        }
        if signal { wake() }
        return accepted
    }

    /// Asks the thread to stop after what is posted; true for the first call. Posts are
    /// ignored from now on.
    @discardableResult
    public func stop() -> Bool {
        let first = state.withLock { s -> Bool in
            defer { s.stopping = true }
            return !s.stopping
        }
        if first { wake() }
        return first
    }

    /// The thread takes what was posted (`body` moves it out of the contents) and learns
    /// whether it must stop; a post from now on wakes it again.
    public func take<Result: Sendable>(_ body: (inout Contents) -> Result) -> (taken: Result, stopping: Bool) {
        state.withLock { s in
            s.wakePending = false
            return (body(&s.contents), s.stopping)
        }
    }

    /// Reads the contents under the lock.
    public func read<Result: Sendable>(_ body: (Contents) -> Result) -> Result {
        state.withLock { body($0.contents) }
    }

    /// Whether `stop()` was called.
    public var isStopping: Bool { state.withLock { $0.stopping } }
}
