import Dispatch
import FoundationEssentials
import GesturePadSystem
import Logging
import Synchronization

/// Desktop notifications over D-Bus (org.freedesktop.Notifications, sd-bus), from a thread of
/// its own (`NotificationLoop`): `show` and `withdraw` only queue and wake it, so the caller
/// (the server's service thread) never waits on the bus. The bus is opened at the first notice;
/// without a session bus or a notification server the observer hears `.unavailable` once and
/// nothing else happens. Buttons pressed come back to the observer as `.invoked`.
public final class DesktopNotifier: Sendable {
    enum Request: Sendable {
        case show(DesktopNotice)
        case withdraw(String)
    }

    private struct State {
        var started = false
        var observer: (@Sendable (DesktopNotifierEvent) -> Void)?
    }

    private let state = Mutex(State())
    /// The requests for the thread; its wake-up is the eventfd it polls beside the bus.
    private let mailbox: WorkerMailbox<[Request]>
    private let wakeup: EventWakeup
    private let finished = DispatchSemaphore(value: 0)
    private let logger: Logger

    public init(logger: Logger = Logger(label: "gesturepad.notify")) throws {
        let wakeup = try EventWakeup()
        self.wakeup = wakeup
        mailbox = WorkerMailbox([]) { wakeup.signal() }
        self.logger = logger
    }

    /// `handler` hears every event, on the notifier's thread.
    public func observe(_ handler: @escaping @Sendable (DesktopNotifierEvent) -> Void) {
        state.withLock { $0.observer = handler }
    }

    /// Shows `notice` (replacing the one with the same tag).
    public func show(_ notice: DesktopNotice) {
        post(.show(notice))
    }

    /// Closes the notice tagged `tag`, if it is still shown.
    public func withdraw(tag: String) {
        post(.withdraw(tag))
    }

    /// Stops the thread (waits up to a second for it).
    public func stop() {
        mailbox.stop()
        let started = state.withLock { $0.started }
        if started { _ = finished.wait(timeout: .now() + 1) }
    }

    private func post(_ request: Request) {
        guard mailbox.post({ $0.append(request) }) else { return }
        let start = state.withLock { s -> Bool in
            defer { s.started = true }
            return !s.started
        }
        if start { startThread() }
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
        let observer = state.withLock { $0.observer }
        observer?(event)
    }

    private func startThread() {
        let thread = SystemThread { [self] in
            NotificationLoop(notifier: self, wakeup: wakeup, logger: logger).run()
            finished.signal()
        }
        thread.name = "gesturepad-notify"
        thread.start()
    }
}
