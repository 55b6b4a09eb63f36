import FoundationEssentials
import GesturePadSystem
import Logging
import Synchronization

/// Desktop notifications over D-Bus (org.freedesktop.Notifications, sd-bus), from a thread of
/// its own: `show` and `withdraw` only queue and wake it, so the caller (the server's service
/// thread) never waits on the bus. The thread is a `WorkerThread` started at the first notice,
/// whose turns (`NotificationLoop`) wait by themselves, in a `poll` on the bus and on the
/// eventfd the `WorkerMailbox` signals. The bus is opened at the first notice; without a
/// session bus or a notification server the observer hears `.unavailable` once and nothing
/// else happens. Buttons pressed come back to the observer as `.invoked`.
public final class DesktopNotifier: Sendable {
    enum Request: Sendable {
        case show(DesktopNotice)
        case withdraw(String)
    }

    private let observer = Mutex<(@Sendable (DesktopNotifierEvent) -> Void)?>(nil)
    /// The requests for the thread; its wake-up is the eventfd it polls beside the bus.
    private let mailbox: WorkerMailbox<[Request]>
    private let thread = WorkerThread(name: "gp-notify")

    public init(logger: Logger = Logger(label: "gesturepad.notify")) throws {
        let wakeup = try EventWakeup()
        mailbox = WorkerMailbox([]) { wakeup.signal() }
        // The loop is made on the thread at its first turn and kept there; it holds the
        // notifier until the stop (`.exit`) lets it go.
        let confined = ThreadConfined<NotificationLoop?>(nil)
        thread.setTurn { [weak self] in
            confined.withValue { loop -> WorkerTurn in
                if loop == nil, let self { loop = NotificationLoop(notifier: self, wakeup: wakeup, logger: logger) }
                guard let current = loop else { return .exit }
                let next = current.turn()
                if next == .exit { loop = nil }
                return next
            }
        }
    }

    /// `handler` hears every event, on the notifier's thread.
    public func observe(_ handler: @escaping @Sendable (DesktopNotifierEvent) -> Void) {
        observer.withLock { $0 = handler }
    }

    /// Shows `notice` (replacing the one with the same tag).
    public func show(_ notice: DesktopNotice) {
        post(.show(notice))
    }

    /// Closes the notice tagged `tag`, if it is still shown.
    public func withdraw(tag: String) {
        post(.withdraw(tag))
    }

    /// Stops the thread (waits up to a second for it, when it was started).
    public func stop() {
        guard mailbox.stop(), thread.isRunning else { return }
        _ = thread.join(timeout: 1)
    }

    private func post(_ request: Request) {
        guard mailbox.post({ $0.append(request) }) else { return }
        thread.start()
    }

    /// What the thread takes at once: the requests, and whether to stop (after draining its
    /// wake-up: a request posted after this wakes it again).
    func take() -> (requests: [Request], stopping: Bool) {
        let (requests, stopping) = mailbox.take { requests in
            defer { requests.removeAll() }
            return requests
        }
        return (requests, stopping)
    }

    func tell(_ event: DesktopNotifierEvent) {
        let observer = self.observer.withLock { $0 }
        observer?(event)
    }
}
