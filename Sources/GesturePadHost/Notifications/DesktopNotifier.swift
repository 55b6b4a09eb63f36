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
        var requests: [Request] = []
        var stopping = false
        var started = false
        var observer: (@Sendable (DesktopNotifierEvent) -> Void)?
    }

    private let state = Mutex(State())
    private let wakeup: EventWakeup
    private let finished = DispatchSemaphore(value: 0)
    private let logger: Logger

    public init(logger: Logger = Logger(label: "gesturepad.notify")) throws {
        wakeup = try EventWakeup()
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
        let started = state.withLock { s -> Bool in
            s.stopping = true
            return s.started
        }
        wakeup.signal()
        if started { _ = finished.wait(timeout: .now() + 1) }
    }

    private func post(_ request: Request) {
        let start = state.withLock { s -> Bool in
            guard !s.stopping else { return false }
            s.requests.append(request)
            defer { s.started = true }
            return !s.started
        }
        if start { startThread() }
        wakeup.signal()
    }

    /// What the thread takes at once: the requests, and whether to stop.
    func take() -> (requests: [Request], stopping: Bool) {
        state.withLock { s in
            defer { s.requests.removeAll() }
            return (s.requests, s.stopping)
        }
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
