import FoundationEssentials
import GesturePadSettings
import GesturePadSystem
import GestureProtocol
import Logging

/// The shell of `PairingDesk` on the server's service thread: the desk decides on the device
/// list in memory, `DeviceFileSync` says when `devices.json` follows and the `StateKeeper`
/// writes it from its own thread (no disk I/O, no lock on the service thread after start);
/// says what happened on the terminal and in desktop notifications, and hands the actions
/// about connections back to the server, which carries them out through the hub.
final class PairingService {
    private var desk: PairingDesk
    private let store: DeviceStore
    /// The terminal lines and desktop notifications of what the desk decides.
    private let announcer: PairingAnnouncer
    private let logger: Logger
    /// The notifier's answers, posted on its thread (which wakes the service loop), taken by
    /// the service loop.
    let inbox: WorkerMailbox<[PairingNotifierEvent]>
    /// When the file follows the desk's list.
    private var sync = DeviceFileSync(onDisk: DeviceList(), version: nil)
    /// The file's I/O, off the service thread.
    private let keeper: StateKeeper
    private var published: DevicePresence?
    /// SIGUSR1 reloads taken in (`DevicePresence.reloads`).
    private var reloads = 0
    private var warnedUnreadable = false
    /// The move tickets given to plain-HTTP pages of paired devices (`--tls`), in memory.
    private var tickets = MoveTickets()

    private let forgetAll: Bool

    /// Touches no file: `start()` reads the list once the server listens. `wake` wakes the
    /// service loop when the notifier posts an answer.
    init(setup: PairingSetup, logger: Logger, wake: @escaping @Sendable () -> Void = {}) {
        inbox = WorkerMailbox([], wake: wake)
        store = setup.store
        announcer = PairingAnnouncer(notifier: setup.notifier, logger: logger)
        forgetAll = setup.forgetAll
        self.logger = logger
        desk = PairingDesk(settings: setup.settings, list: DeviceList())
        keeper = StateKeeper(store: setup.store, presence: setup.presence, wake: { SignalRelay.wakeLoop() })
    }

    /// Reads the device list as the server starts (`now`: its clock): requests a previous run
    /// left waiting are moot (their pages are gone), `--forget-devices` forgets every device,
    /// and pairing opens (the banner shows the code).
    func start(now: Double) {
        let forgetAll = self.forgetAll
        let list = try? store.update { list -> DeviceList in
            if forgetAll { list.removeAll() }
            list.devices.removeAll { $0.state != .paired }
            return list
        }
        if list == nil { logger.warning("cannot read or write \(store.directory.file(DeviceList.fileName))") }
        if forgetAll { logger.notice("forgot every paired device (--forget-devices)") }
        sync = DeviceFileSync(onDisk: list ?? DeviceList(), version: store.version())
        desk = PairingDesk(settings: desk.settings, list: list ?? DeviceList())
        // The start-up banner shows the code: pairing is open from now (nobody waits yet) —
        // unless the service manager started the server, and no one sees the code.
        if desk.settings.openAtStart {
            _ = desk.openPairing(at: PairingTime(now: now, stamp: ServerRecord.timestamp(Date())), fresh: Self.fresh)
        } else if !desk.settings.confirm {
            logger.notice("pairing stays closed: this start was the service manager's (gesturepad pair opens it)")
        }
        keeper.start()
        publishPresence()
    }

    /// As the server stops: the keeper's last writes, then what is still unwritten (`lastSeen`
    /// of the connections just closed), merged with the file, on this thread — nothing else
    /// runs any more.
    func finish(now: Double) {
        if !keeper.stop() { logger.warning("the paired devices' file is locked elsewhere: last-seen times may be lost") }
        _ = takeStateOutcomes(now: now)
        guard desk.list != sync.onDisk else { return }
        let (base, mine) = (sync.onDisk, desk.list)
        do {
            try store.update { list in list = DeviceListMerge.merge(base: base, mine: mine, theirs: list) }
        } catch {
            logger.warning("cannot keep the paired devices: \(error)")
        }
    }

    var settings: PairingSettings { desk.settings }

    /// When the next waiting device runs out of time, or waiting `lastSeen` changes are due
    /// (server clock, ms).
    var nextDeadline: Double? { [desk.nextDeadline, sync.lastSeenDue].compactMap { $0 }.min() }

    /// Where the token `key` stands as a device key, in the list in memory (read at start and
    /// whenever `gesturepad devices` signals a change: no file is touched here).
    func standing(ofKey key: String?) -> KeyStanding {
        key.map(desk.list.standing(ofKey:)) ?? .unknown
    }

    /// `derivedKey`: the new device's key from the proof handshake (never sent); without it a
    /// fresh key is drawn and told in `welcome`. `client`: who a `?token=` pairing is
    /// (`PairingDesk.opened`).
    /// `publicKey`: the public key of a phone that proved itself with a key pair of its own
    /// (docs/protocol.md "Device key pairs"), which pairing keeps instead of any key.
    /// `moved`: the device proved a move ticket, and `derivedKey` or `publicKey` is its new
    /// credential; `rekeyed`: a paired device proved its shared key and brought a key pair,
    /// whose public key replaces that key. `kind` and `browser`: what a proof's pairing pairs
    /// as, and who the browser is; `address`, where it connects from (`PairingDesk.opened`).
    func opened(
        _ connection: Int, as admission: Admission, name: String, now: Double, derivedKey: String? = nil,
        publicKey: String? = nil, client: String? = nil, moved: Bool = false, rekeyed: Bool = false,
        kind: DeviceKind = .touchpad, browser: String? = nil, from address: String? = nil
    ) -> [PairingAction] {
        guard admission != .open, admission != .proving else { return [] }
        var fresh = Self.fresh()
        if let derivedKey {
            fresh.key = derivedKey
            fresh.told = false
        }
        fresh.publicKey = publicKey
        return transact(now: now) { desk, time in
            if moved || rekeyed, case .device(let id) = admission, derivedKey != nil || publicKey != nil {
                if moved { tickets.take(id) }
                desk.rekey(id, to: fresh.credential)
                if moved {
                    logger.notice("a phone moved to HTTPS with its pairing", metadata: ["device": "\(id)"])
                } else {
                    logger.notice("a paired phone now proves itself with a key pair of its own", metadata: ["device": "\(id)"])
                }
            }
            return desk.opened(
                connection, as: admission, name: name, at: time, fresh: fresh, client: client, kind: kind, browser: browser,
                from: address)
        }
    }

    /// A move ticket for paired device `id`, whose plain-HTTP page proved its key to a server
    /// that speaks TLS (docs/protocol.md "Moving to HTTPS"): fresh, 256 random bits; only its
    /// digest is kept. Nil when the device is not paired.
    func moveTicket(for id: String, now: Double) -> String? {
        guard desk.list.device(id)?.state == .paired else { return nil }
        let ticket = DeviceKey.random()
        tickets.give(ticket, to: id, now: now)
        return ticket
    }

    /// The move tickets valid at `now`, by device id (`ProofJudge`).
    func ticketDigests(now: Double) -> [String: String] { tickets.digests(now: now) }

    /// Whether the pairing secret pairs a new device now (`PairingDesk.isOpen(at:)`).
    func isOpen(now: Double) -> Bool { desk.isOpen(at: now) }

    /// Until when pairing stays open (server clock, ms; nil: closed, or never closes).
    func openUntil(now: Double) -> Double? { desk.openUntil(now: now) }

    /// The ids of the devices connected now.
    var connectedDevices: Set<String> { desk.connectedDevices }

    /// Pairing opens now (the desktop page's button): the devices waiting for it pair.
    func openPairing(now: Double) -> [PairingAction] {
        logger.notice("pairing is open (the desktop page)")
        return transact(now: now) { desk, time in desk.openPairing(at: time, fresh: Self.fresh) }
    }

    /// Pairing closes now (the desktop page's button).
    func closePairing(now: Double) -> [PairingAction] {
        logger.notice("pairing is closed (the desktop page)")
        return transact(now: now) { desk, _ in
            desk.closePairing()
            return []
        }
    }

    /// Device `id` is renamed (the desktop page); its pages are told.
    func rename(_ id: String, to name: String, now: Double) throws(DeviceEditError) -> [PairingAction] {
        try transact(now: now) { desk, _ throws(DeviceEditError) in try desk.rename(id, to: name) }
    }

    /// Device `id` is forgotten (the desktop page): its connections close with 4403.
    func forget(_ id: String, now: Double) -> [PairingAction] {
        transact(now: now) { desk, _ in desk.forget(id, by: .computer) }
    }

    /// The device list as it is now, in memory (read at start and whenever `gesturepad
    /// devices` signals a change: no file is touched here).
    var devices: DeviceList { desk.list }

    func closed(_ connection: Int, now: Double) -> [PairingAction] {
        guard desk.connections[connection] != nil || desk.waiting[connection] != nil else { return [] }
        return transact(now: now) { desk, time in desk.closed(connection, at: time) }
    }

    func unpair(_ connection: Int, now: Double) -> [PairingAction] {
        transact(now: now) { desk, _ in desk.unpair(connection) }
    }

    /// SIGUSR1: `gesturepad devices` changed the file; the keeper reads it, and
    /// `takeStateOutcomes` takes it in.
    func reload(now: Double) -> [PairingAction] {
        keeper.read()
        return []
    }

    /// Waiting devices out of time are refused; waiting `lastSeen` changes due are written.
    func expire(now: Double) -> [PairingAction] {
        transact(now: now) { desk, time in desk.expire(at: time) }
    }

    /// What the keeper did since the last call: the file as written, or as someone else left
    /// it (taken in by the desk, which acts on the difference).
    func takeStateOutcomes(now: Double) -> [PairingAction] {
        var actions: [PairingAction] = []
        for outcome in keeper.take() {
            switch outcome {
            case .saved(let list, let version):
                request(sync.saved(list, version: version, current: desk.list, now: now))
            case .read(let contents, let version, let requested):
                if requested { reloads += 1 }
                let theirs: DeviceList?
                switch contents {
                case .list(let list): theirs = list
                case .missing: theirs = nil
                case .unreadable:
                    if !warnedUnreadable {
                        logger.warning("\(store.directory.file(DeviceList.fileName)) is not a device list: it will be rewritten")
                        warnedUnreadable = true
                    }
                    theirs = sync.onDisk
                }
                let merged = sync.fileRead(theirs, version: version, current: desk.list)
                let time = PairingTime(now: now, stamp: ServerRecord.timestamp(Date()))
                actions += desk.reload(merged, at: time, fresh: Self.fresh)
                request(sync.changed(desk.list, now: now))
            case .failed(let reason):
                logger.warning("cannot keep the paired devices: \(reason)")
                sync.failed(now: now)
            }
        }
        publishPresence()
        return actions.filter(carryOutHere)
    }

    /// What the desktop notifications answered since the last call.
    func takeNotifierEvents(now: Double) -> [PairingAction] {
        let events = inbox.take { list in
            defer { list.removeAll() }
            return list
        }.taken
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

    /// Runs `body` on the desk (in memory), then asks for the file to follow. Announcements
    /// are carried out here; the connection actions are returned. A `body` that throws changed
    /// nothing (`PairingDesk` edits throw before they change the list): nothing is asked then.
    private func transact<Failure: Error>(
        now: Double, _ body: (inout PairingDesk, PairingTime) throws(Failure) -> [PairingAction]
    ) throws(Failure) -> [PairingAction] {
        let time = PairingTime(now: now, stamp: ServerRecord.timestamp(Date()))
        let wasOpen = desk.isOpen(at: now)
        let actions = try body(&desk, time)
        if wasOpen, !desk.isOpen(at: now), desk.windowFull {
            logger.notice(
                "pairing is closed: \(desk.settings.devicesPerWindow) new devices paired since it opened, the most for one opening (open it again for more: GesturePad's window, or gesturepad pair)"
            )
        }
        request(sync.changed(desk.list, now: now))
        publishPresence()
        return actions.filter(carryOutHere)
    }

    private func request(_ requests: [DeviceFileSync.Request]) {
        for request in requests {
            switch request {
            case .save(let list, let version): keeper.save(list, basedOn: version)
            }
        }
    }

    private func publishPresence() {
        let current = DevicePresence(connected: desk.connectedDevices.sorted(), reloads: reloads)
        guard current != published else { return }
        published = current
        keeper.publish(current)
    }

    private static func fresh() -> FreshDevice {
        FreshDevice(id: DeviceKey.randomID(), key: DeviceKey.random())
    }

    /// Announcements and withdrawals are carried out here; true for the rest.
    private func carryOutHere(_ action: PairingAction) -> Bool {
        switch action {
        case .announce(let event):
            announcer.announce(event, notifying: desk.settings.notify)
            return false
        case .withdraw(let id):
            announcer.withdraw(id)
            return false
        case .greet, .hold, .admit, .rename, .close:
            return true
        }
    }
}
