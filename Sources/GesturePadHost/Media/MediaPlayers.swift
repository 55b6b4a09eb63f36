import GestureControl
import GesturePadSystem
import Logging
import Synchronization

/// The computer's media players over MPRIS (docs/control.md "Media players"), from a thread of
/// its own (`MediaLoop`, a `WorkerThread` waiting in `poll` on its session bus connection and on
/// the eventfd its mailbox signals): `perform` only queues and wakes it, so the server's service
/// thread never waits on the bus; the observer hears every new `MediaSnapshot` on the media
/// thread. Without a session bus the observer hears `noBus`, and the thread tries again every
/// few seconds.
public final class MediaPlayers: MediaRemote, Sendable {
    private let observer = Mutex<(@Sendable (MediaSnapshot) -> Void)?>(nil)
    private let mailbox: WorkerMailbox<[MediaCommand]>
    private let thread: WorkerThread

    /// `clock`: the time the media thread tells positions and snapshots by (the server's).
    public init(logger: Logger = Logger(label: "gesturepad.media"), clock: any WorkerClock = SystemWorkerClock()) throws {
        thread = WorkerThread(name: "gp-media", clock: clock)
        let wakeup = try EventWakeup()
        mailbox = WorkerMailbox([]) { wakeup.signal() }
        let confined = ThreadConfined<MediaLoop?>(nil)
        thread.setTurn { [weak self] in
            confined.withValue { loop -> WorkerTurn in
                if loop == nil, let self { loop = MediaLoop(players: self, wakeup: wakeup, clock: clock, logger: logger) }
                guard let current = loop else { return .exit }
                let next = current.turn()
                if next == .exit { loop = nil }
                return next
            }
        }
    }

    /// Starts the thread: `handler` hears the first snapshot as soon as the bus is read.
    public func observe(_ handler: @escaping @Sendable (MediaSnapshot) -> Void) {
        observer.withLock { $0 = handler }
        thread.start()
    }

    public func perform(_ command: MediaCommand) {
        guard mailbox.post({ $0.append(command) }) else { return }
        thread.start()
    }

    /// Stops the thread (waits up to a second for it).
    public func stop() {
        guard mailbox.stop(), thread.isRunning else { return }
        _ = thread.join(timeout: 1)
    }

    /// What the thread takes at once: the commands, and whether to stop.
    func take() -> (commands: [MediaCommand], stopping: Bool) {
        let (commands, stopping) = mailbox.take { commands in
            defer { commands.removeAll() }
            return commands
        }
        return (commands, stopping)
    }

    func tell(_ snapshot: MediaSnapshot) {
        let observer = self.observer.withLock { $0 }
        observer?(snapshot)
    }
}
