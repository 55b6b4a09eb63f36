import GesturePadSystem
import Logging

/// The notifier's thread's state and turn: owns the bus connection and which notification id
/// is which tag, sends `Notify` / `CloseNotification`, and turns `ActionInvoked` into events.
/// Each turn waits by itself, in one `poll` on the bus and on the notifier's eventfd.
final class NotificationLoop {
    private let notifier: DesktopNotifier
    private let wakeup: EventWakeup
    private let logger: Logger
    private var bus: SDBusConnection?
    /// Set once the observer heard `.unavailable` (it hears it once; later notices still try,
    /// for a notification server that starts later).
    private var reported = false
    private var ids: [String: UInt32] = [:]
    private var tags: [UInt32: String] = [:]
    /// The unique name of the notification server that answered `Notify`: only its
    /// `ActionInvoked` counts. Any process on the session bus can emit that signal with a
    /// guessed id; believing it would let it approve a waiting phone or forget a paired one.
    private var server: String?

    init(notifier: DesktopNotifier, wakeup: EventWakeup, logger: Logger) {
        self.notifier = notifier
        self.wakeup = wakeup
        self.logger = logger
    }

    /// One turn of the `WorkerThread`: what was posted, then what the bus has, then a wait in
    /// `poll` until either has more (`.again`); `.exit`, the bus closed, once stopping.
    func turn() -> WorkerTurn {
        wakeup.drain()
        let (requests, stopping) = notifier.take()
        guard !stopping else {
            bus?.close()
            bus = nil
            return .exit
        }
        for request in requests { carryOut(request) }
        pump()
        let poll = bus?.pollRequest()
        wakeup.wait(bus: poll.map { ($0.fileDescriptor, $0.events) }, timeoutMilliseconds: poll?.timeoutMilliseconds ?? -1)
        return .again
    }

    private func carryOut(_ request: DesktopNotifier.Request) {
        switch request {
        case .show(let notice):
            guard let bus = connected() else { return }
            do {
                let reply = try bus.reply(to: NotificationBus.notify(notice, replacing: ids[notice.tag] ?? 0))
                guard let id = reply.arguments.first?.uint32 else { return }
                if server != reply.sender {
                    // Another server took over: the old one's ids mean nothing now.
                    server = reply.sender
                    ids.removeAll()
                    tags.removeAll()
                }
                ids[notice.tag] = id
                tags[id] = notice.tag
            } catch {
                giveUp(Self.text(error))
            }
        case .withdraw(let tag):
            guard let id = ids.removeValue(forKey: tag) else { return }
            tags.removeValue(forKey: id)
            bus?.send(NotificationBus.close(id))
        }
    }

    /// The bus, opened and subscribed the first time.
    private func connected() -> SDBusConnection? {
        if let bus { return bus }
        do {
            let connection = try SDBusConnection.openSessionBus()
            connection.setCallTimeout(seconds: 5)
            try connection.subscribe(interface: NotificationBus.interface, member: "ActionInvoked")
            try connection.subscribe(interface: NotificationBus.interface, member: "NotificationClosed")
            bus = connection
            return connection
        } catch {
            giveUp(Self.text(error))
            return nil
        }
    }

    private func pump() {
        while let bus {
            if let error = bus.process() {
                giveUp(error.message)
                return
            }
            let incoming = bus.takeInbox()
            if incoming.isEmpty { return }
            for message in incoming { handle(message) }
        }
    }

    private func handle(_ message: SDBusIncoming) {
        guard case .signal(let signal) = message, signal.interface == NotificationBus.interface,
            let server, signal.sender == server,
            let id = signal.arguments.first?.uint32, let tag = tags[id]
        else {
            if case .signal(let signal) = message, signal.sender != server,
                let id = signal.arguments.first?.uint32, tags[id] != nil
            {
                logger.notice(
                    "ignored a notification action that did not come from the notification server",
                    metadata: ["dbus.sender": "\(signal.sender)", "dbus.member": "\(signal.member)"])
            }
            return
        }
        switch signal.member {
        case "ActionInvoked":
            guard signal.arguments.count > 1, let action = signal.arguments[1].text else { return }
            notifier.tell(.invoked(tag: tag, action: action))
        case "NotificationClosed":
            tags.removeValue(forKey: id)
            if ids[tag] == id { ids.removeValue(forKey: tag) }
        default:
            break
        }
    }

    /// Drops the connection (the next notice connects again) and tells the observer, once.
    private func giveUp(_ reason: String) {
        bus?.close()
        bus = nil
        ids.removeAll()
        tags.removeAll()
        server = nil
        logger.debug("desktop notification failed", metadata: ["error": "\(reason)"])
        guard !reported else { return }
        reported = true
        notifier.tell(.unavailable(reason))
    }

    private static func text(_ error: any Error) -> String {
        "\(error)"
    }
}
