import FoundationEssentials
import GesturePadSettings
import GestureProtocol
import Logging
import Synchronization

/// The shell of `PairingDesk` on the server's service thread: runs each pairing input as a
/// transaction on `devices.json` (lock, take in what changed on disk, decide, write, unlock),
/// says what happened on the terminal and in desktop notifications, and hands the actions
/// about connections back to the server, which carries them out through the hub.
final class PairingService {
    private var desk: PairingDesk
    private let store: DeviceStore
    let notifier: (any PairingNotifier)?
    private let presence: (@Sendable ([String]) -> Void)?
    let logger: Logger
    /// The notifier's answers, posted on its thread, taken by the service loop.
    let inbox = NotifierInbox()
    /// The list as last read from or written to the file, and the file's version then.
    private var onDisk: DeviceList?
    private var diskVersion: DeviceStore.FileVersion?
    private var published: Set<String>?
    private var warnedUnreadable = false

    private let forgetAll: Bool

    /// Touches no file: `start()` reads the list once the server listens.
    init(setup: PairingSetup, logger: Logger) {
        store = setup.store
        notifier = setup.notifier
        presence = setup.presence
        forgetAll = setup.forgetAll
        self.logger = logger
        desk = PairingDesk(settings: setup.settings, list: DeviceList())
    }

    /// Reads the device list as the server starts: requests a previous run left waiting are
    /// moot (their pages are gone), and `--forget-devices` forgets every device.
    func start() {
        let forgetAll = self.forgetAll
        let list = try? store.update { list -> DeviceList in
            if forgetAll { list.removeAll() }
            list.devices.removeAll { $0.state != .paired }
            return list
        }
        if list == nil { logger.warning("cannot read or write \(store.directory.file(DeviceList.fileName))") }
        if forgetAll { logger.notice("forgot every paired device (--forget-devices)") }
        onDisk = list
        diskVersion = store.version()
        desk = PairingDesk(settings: desk.settings, list: list ?? DeviceList())
        publishPresence()
    }

    var settings: PairingSettings { desk.settings }

    /// When the next waiting device runs out of time (server clock, ms).
    var nextDeadline: Double? { desk.nextDeadline }

    /// Where the token `key` stands as a device key (the file is read again first when it
    /// changed since: `gesturepad devices`, another server).
    func standing(ofKey key: String?, now: Double) -> (standing: KeyStanding, actions: [PairingAction]) {
        var actions: [PairingAction] = []
        if store.version() != diskVersion { actions = transact(now: now) { _, _ in [] } }
        return (key.map(desk.list.standing(ofKey:)) ?? .unknown, actions)
    }

    func opened(_ connection: Int, as admission: Admission, name: String, now: Double) -> [PairingAction] {
        guard admission != .open else { return [] }
        let fresh = Self.fresh()
        return transact(now: now) { desk, time in desk.opened(connection, as: admission, name: name, at: time, fresh: fresh) }
    }

    func closed(_ connection: Int, now: Double) -> [PairingAction] {
        guard desk.connections[connection] != nil || desk.waiting[connection] != nil else { return [] }
        return transact(now: now) { desk, time in desk.closed(connection, at: time) }
    }

    func unpair(_ connection: Int, now: Double) -> [PairingAction] {
        transact(now: now) { desk, _ in desk.unpair(connection) }
    }

    /// SIGUSR1: `gesturepad devices` changed the file.
    func reload(now: Double) -> [PairingAction] {
        transact(now: now) { _, _ in [] }
    }

    func expire(now: Double) -> [PairingAction] {
        transact(now: now) { desk, time in desk.expire(at: time) }
    }

    /// What the desktop notifications answered since the last call.
    func takeNotifierEvents(now: Double) -> [PairingAction] {
        let events = inbox.take()
        var actions: [PairingAction] = []
        for event in events {
            switch event {
            case .invoked(let id, let action):
                logger.info("notification answered", metadata: ["device.id": "\(id)", "notification.action": "\(action)"])
                switch action {
                case NoticeKey.allow:
                    let key = DeviceKey.random()
                    actions += transact(now: now) { desk, time in desk.allow(id, key: key, at: time) }
                case NoticeKey.deny:
                    actions += transact(now: now) { desk, _ in desk.deny(id, reason: "was declined on the computer") }
                case NoticeKey.forget:
                    actions += transact(now: now) { desk, _ in desk.forget(id, by: .computer) }
                default:
                    break
                }
            case .unavailable(let reason):
                logger.notice("no desktop notifications (\(reason)): pairing is told on this terminal only")
            }
        }
        return actions
    }

    // MARK: - The transaction

    /// Runs `body` on the desk with the file locked: first the desk takes in what changed on
    /// disk, then `body` decides, then the list is written if it changed. Announcements are
    /// carried out here; the connection actions are returned.
    private func transact(now: Double, _ body: (inout PairingDesk, PairingTime) -> [PairingAction]) -> [PairingAction] {
        let time = PairingTime(now: now, stamp: ServerRecord.timestamp(Date()))
        var actions: [PairingAction] = []
        var ran = false
        do {
            try store.withLock {
                actions += takeInFile(at: time)
                actions += body(&desk, time)
                ran = true
                if desk.list != onDisk {
                    try store.write(desk.list)
                    onDisk = desk.list
                }
            }
        } catch {
            logger.warning("cannot keep the paired devices: \(error)")
            if !ran { actions += body(&desk, time) }
        }
        diskVersion = store.version()
        publishPresence()
        return actions.filter(carryOutHere)
    }

    /// What changed in the file since it was last read or written.
    private func takeInFile(at time: PairingTime) -> [PairingAction] {
        let file: DeviceList
        switch store.read() {
        case .list(let list): file = list
        case .missing: file = DeviceList()
        case .unreadable:
            if !warnedUnreadable {
                logger.warning("\(store.directory.file(DeviceList.fileName)) is not a device list: it will be rewritten")
                warnedUnreadable = true
            }
            return []
        }
        guard file != onDisk else { return [] }
        onDisk = file
        return desk.reload(file, at: time, fresh: Self.fresh)
    }

    private func publishPresence() {
        let connected = desk.connectedDevices
        guard connected != published else { return }
        published = connected
        presence?(connected.sorted())
    }

    private static func fresh() -> FreshDevice {
        FreshDevice(id: DeviceKey.randomID(), key: DeviceKey.random())
    }

    /// Announcements and withdrawals are carried out here; true for the rest.
    private func carryOutHere(_ action: PairingAction) -> Bool {
        switch action {
        case .announce(let event):
            announce(event)
            return false
        case .withdraw(let id):
            notifier?.withdraw(tag: id)
            return false
        case .greet, .hold, .admit, .rename, .close:
            return true
        }
    }
}

/// The desktop notifier's events, posted on its thread and taken by the service loop.
final class NotifierInbox: Sendable {
    private let events = Mutex<[PairingNotifierEvent]>([])

    func post(_ event: PairingNotifierEvent) {
        events.withLock { $0.append(event) }
    }

    func take() -> [PairingNotifierEvent] {
        events.withLock { list in
            defer { list.removeAll() }
            return list
        }
    }
}
