import Dispatch
import GestureControl
import Glibc
import Synchronization

@testable import GesturePadHost

/// What a `RecordingExecutor` was asked to do, in order.
enum ExecutorCall: Equatable, Sendable {
    case execute(HostAction)
    case flush
    case releaseAll
    case close
}

/// The calls a `RecordingExecutor` saw, shared with the test thread. Optionally blocks the
/// executor on one action until `open()`, to fill the worker's queue.
final class CallLog: Sendable {
    private let calls = Mutex<[ExecutorCall]>([])
    private let callThreads = Mutex<[pthread_t]>([])
    private let gate = DispatchSemaphore(value: 0)
    private let reachedGate = DispatchSemaphore(value: 0)
    let blockingAction: HostAction?

    init(blockingOn action: HostAction? = nil) {
        blockingAction = action
    }

    var all: [ExecutorCall] { calls.withLock { $0 } }
    /// The thread of each call, in order.
    var threads: [pthread_t] { callThreads.withLock { $0 } }

    /// The executed actions only.
    var actions: [HostAction] {
        all.compactMap { call in
            if case .execute(let action) = call { return action }
            return nil
        }
    }

    func record(_ call: ExecutorCall) {
        calls.withLock { $0.append(call) }
        callThreads.withLock { $0.append(pthread_self()) }
        if case .execute(let action) = call, action == blockingAction {
            reachedGate.signal()
            gate.wait()
        }
    }

    /// Waits until the executor is blocked on the blocking action.
    func waitUntilBlocked() -> Bool {
        reachedGate.wait(timeout: .now() + 5) == .success
    }

    func open() { gate.signal() }
}

/// An executor that only records, for the worker's tests.
struct RecordingExecutor: ActionExecutor {
    let log: CallLog

    func execute(_ action: HostAction) { log.record(.execute(action)) }
    func flush() { log.record(.flush) }
    func releaseAll() { log.record(.releaseAll) }
    func close() { log.record(.close) }
}
