import GestureControl
import Synchronization

/// A backend's current status and the one observer told of every change (the server), safe
/// from any thread. The observer is called on the thread that changed the status, outside
/// the lock; it must be quick and must not block (the server posts to its own loop).
final class ControlStatusRelay: Sendable {
    private struct State {
        var status: ControlBackendStatus
        var observer: (@Sendable (ControlBackendStatus) -> Void)?
    }

    private let state: Mutex<State>

    init(_ status: ControlBackendStatus) {
        state = Mutex(State(status: status))
    }

    var status: ControlBackendStatus { state.withLock { $0.status } }

    /// Sets the observer and tells it the current status at once.
    func observe(_ observer: @escaping @Sendable (ControlBackendStatus) -> Void) {
        let current = state.withLock { s -> ControlBackendStatus in
            s.observer = observer
            return s.status
        }
        observer(current)
    }

    /// Records `status`; tells the observer when it changed.
    func report(_ status: ControlBackendStatus) {
        let observer = state.withLock { s -> (@Sendable (ControlBackendStatus) -> Void)? in
            guard s.status != status else { return nil }
            s.status = status
            return s.observer
        }
        observer?(status)
    }
}
