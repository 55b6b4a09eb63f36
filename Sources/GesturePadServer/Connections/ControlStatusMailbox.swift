import GestureControl
import Synchronization

/// Hands the backend's status changes (posted on its own thread) to the service loop, which
/// takes them between two `lws_service` calls. Only the latest matters: a page needs to know
/// whether control is on now, not every step it took to get there.
final class ControlStatusMailbox: Sendable {
    private let latest = Mutex<ControlBackendStatus?>(nil)

    func post(_ status: ControlBackendStatus) {
        latest.withLock { $0 = status }
    }

    /// The status posted since the last call, if any.
    func take() -> ControlBackendStatus? {
        latest.withLock { value in
            defer { value = nil }
            return value
        }
    }
}
