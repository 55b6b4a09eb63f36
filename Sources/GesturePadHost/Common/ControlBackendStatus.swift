import Synchronization

/// Whether a backend drives the computer right now. `x11` and `uinput` are active from the
/// moment they open; the `portal` backend becomes active once the desktop allows it, and
/// inactive again when the desktop ends its session.
public enum ControlBackendStatus: Sendable, Hashable {
    /// The backend carries actions out.
    case active
    /// The backend does not drive the computer; `reason` is one line for the user (and for
    /// the pages: it becomes `{"type":"control","active":false,"reason":…}`).
    case inactive(reason: String)

    public var isActive: Bool { self == .active }
}

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
