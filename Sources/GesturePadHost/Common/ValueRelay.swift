import GestureControl
import Synchronization

/// A value a backend's thread changes (its status, the desktop's keyboard layout) and the one
/// observer told of every change (the server), safe from any thread. The observer is called
/// on the thread that changed the value, outside the lock; it must be quick and must not
/// block (the server posts to its own loop).
final class ValueRelay<Value: Sendable & Equatable>: Sendable {
    private struct State {
        var value: Value
        var observer: (@Sendable (Value) -> Void)?
    }

    private let state: Mutex<State>

    init(_ value: Value) {
        state = Mutex(State(value: value))
    }

    var value: Value { state.withLock { $0.value } }

    /// Sets the observer and tells it the current value at once.
    func observe(_ observer: @escaping @Sendable (Value) -> Void) {
        let current = state.withLock { s -> Value in
            s.observer = observer
            return s.value
        }
        observer(current)
    }

    /// Records `value`; tells the observer when it changed.
    func report(_ value: Value) {
        let observer = state.withLock { s -> (@Sendable (Value) -> Void)? in
            guard s.value != value else { return nil }
            s.value = value
            return s.observer
        }
        observer?(value)
    }
}
