import Dispatch
import GestureControl
import GesturePadSystem
import Logging

/// The portal backend's thread's state and turn (a `WorkerThread`): owns the bus connection,
/// the session state machine, the action encoder and the Wayland connection that follows the
/// desktop's keyboard layout; each turn waits by itself, in one `poll` on the bus, the
/// mailbox's eventfd and the Wayland display. Carries out what `PortalSession` returns
/// (calls, the token file, status reports) and sends each host action's Notify calls in order
/// while the session is active (actions before that, or after it ended, are dropped: nothing
/// reaches the desktop then). Reports each new layout (`layouts`), the table its encoder types
/// with from then on, to the server, whose protocol layer refuses what it cannot type.
final class PortalLoop {
    private let mailbox: PortalMailbox
    private let relay: ValueRelay<ControlBackendStatus>
    private let tokenStore: PortalTokenStore?
    private let layouts: ValueRelay<DesktopLayout.Table?>
    /// Which implementation serves the portal, and what the encoder corrects of it.
    private var desktop: PortalDesktop
    private var keymap: SeatKeymapClient?
    private let logger: Logger
    /// When each Response arrived (the session tells a refusal no one saw by how soon it came).
    private let clock: any WorkerClock
    /// Signalled once, when the first session request is answered (active or refused).
    private let answered: DispatchSemaphore
    private var hasAnswered = false

    private var bus: SDBusConnection?
    private var uniqueName = ""
    private(set) var info = PortalProbe.Info(version: 0, deviceTypes: 0)
    private var session = PortalSession()
    private var encoder: PortalActionEncoder
    private var notifies: [PortalNotify] = []
    /// What a turn took from the mailbox (kept: no allocation once warm).
    private var batch: [WorkItem] = []
    private var refusedCalls = 0
    /// KDE: what is held, kept on disk for the next server (nil elsewhere, or without a state folder).
    private var leftovers: PortalLeftovers?

    init(
        mailbox: PortalMailbox, relay: ValueRelay<ControlBackendStatus>, tokenStore: PortalTokenStore?,
        layouts: ValueRelay<DesktopLayout.Table?>, desktop: PortalDesktop, answered: DispatchSemaphore, logger: Logger,
        clock: any WorkerClock = SystemWorkerClock()
    ) {
        self.mailbox = mailbox
        self.relay = relay
        self.tokenStore = tokenStore
        self.layouts = layouts
        self.desktop = desktop
        self.answered = answered
        self.logger = logger
        self.clock = clock
        notifies.reserveCapacity(64)
        encoder = PortalActionEncoder(desktop: desktop)
        if desktop.releasesLeftovers, let tokenStore {
            leftovers = PortalLeftovers(directory: tokenStore.directory, logger: logger)
        }
    }

    /// Connects to the bus and reads the portal's facts; throws a one-line reason.
    func connect() throws {
        let connection = try SDBusConnection.openSessionBus()
        connection.setCallTimeout(seconds: PortalProbe.defaultTimeout)
        info = try PortalProbe.read(on: connection)
        if desktop.kind == .kde { learnRelease(on: connection) }
        // Each step of the session waits for a Request handle, not for the dialog: 10 s is ample.
        connection.setCallTimeout(seconds: 10)
        uniqueName = try connection.uniqueName()
        try connection.subscribe(interface: PortalBus.request, member: "Response")
        try connection.subscribe(interface: PortalBus.session, member: "Closed")
        try connection.subscribeOwnerChanges(of: PortalBus.service)
        bus = connection
    }

    /// KDE: KWin's release (the portal's: they are released together), so that each correction
    /// applies only to the releases that need it; unknown when KWin does not answer in time.
    private func learnRelease(on connection: SDBusConnection) {
        let call = DBusMethodCall(
            destination: "org.kde.KWin", path: "/KWin", interface: "org.kde.KWin", member: "supportInformation",
            arguments: [])
        desktop.version = (try? connection.call(call, timeout: 2))?.first?.text.flatMap(
            DesktopVersion.fromKWinSupportInformation)
        encoder = PortalActionEncoder(desktop: desktop)
        let corrected = desktop.corrections.isEmpty ? "nothing" : desktop.corrections.joined(separator: ", ")
        logger.info(
            "control: the portal of \(desktop.name)\(desktop.version == nil ? " (release unknown)" : ""); corrected: \(corrected)"
        )
    }

    /// The thread's first turn, after a successful `connect`: follows the keymap and asks for
    /// a session.
    func begin() {
        followKeymap()
        beginSession()
        batch.reserveCapacity(mailbox.reservedCapacity)
    }

    /// One turn of the `WorkerThread`: what was posted, then what the bus has, then a wait in
    /// one `poll` on the bus, the mailbox's eventfd and the Wayland display until one has more
    /// (`.again`); once stopping, releases what is held, closes everything and answers `.exit`.
    func turn() -> WorkerTurn {
        let taken = mailbox.take(into: &batch)
        if taken.dropped > 0 {
            logger.warning("control: dropped \(taken.dropped) motion/wheel actions: the portal is not keeping up")
        }
        if taken.requestControl { beginSession() }
        for item in batch { carryOut(item) }
        batch.removeAll(keepingCapacity: true)
        if taken.stopping {
            keymap?.close()
            shutDown()
            return .exit
        }
        pumpBus()
        keymap?.flush()
        let request = bus?.pollRequest()
        let keymapReady = mailbox.wakeup.wait(
            bus: request.map { ($0.fileDescriptor, $0.events) }, watched: keymap?.fileDescriptor,
            timeoutMilliseconds: request?.timeoutMilliseconds ?? -1)
        if keymapReady { readKeymap() }
        return .again
    }

    // MARK: - The keyboard layout

    /// Connects to the Wayland compositor for its keymap (it arrives later, through `poll`).
    private func followKeymap() {
        keymap = SeatKeymapClient.connect()
        if keymap == nil {
            logger.notice(
                "control: no Wayland display (WAYLAND_DISPLAY) to read the keyboard layout from: text is typed in ASCII only")
        }
    }

    private func readKeymap() {
        guard let keymap else { return }
        guard keymap.dispatch() else {
            self.keymap = nil
            logger.warning("control: lost the Wayland display; the keyboard layout stays as it was")
            return
        }
        guard let text = keymap.takeKeymap(), let found = XKBKeymap(text: text)?.layouts,
            let table = PortalKeymap.table(found, for: desktop)
        else { return }
        guard table != encoder.layout else { return }
        encoder.layout = table
        // The server says which layout it checks text against once it does (the hub's log).
        self.layouts.report(table)
    }

    // MARK: - The session

    private func beginSession() {
        if bus == nil {
            do {
                try connect()
            } catch {
                let message = "\(error)"
                apply([.report(.inactive(reason: PortalSession.Reason.failed(message)))])
                return
            }
        }
        let token = tokenStore?.load()
        apply(session.handle(.begin(uniqueName: uniqueName, version: info.version, restoreToken: token)))
    }

    func apply(_ actions: [PortalSession.Action]) {
        for action in actions {
            switch action {
            case .call(let call):
                perform(call)
            case .saveRestoreToken(let token):
                guard let tokenStore else { continue }
                do {
                    try tokenStore.save(token)
                } catch {
                    logger.warning("control: cannot keep the desktop's permission: \(error)")
                }
            case .report(let status):
                if status == .active {
                    encoder = PortalActionEncoder(layout: encoder.layout, desktop: desktop)
                    notifies += leftovers?.take() ?? []
                    sendNotifies()
                }
                relay.report(status)
                if status != .notAllowed(reason: PortalSession.Reason.waiting), !hasAnswered {
                    hasAnswered = true
                    answered.signal()
                }
            case .notice(let text):
                logger.notice("control: \(text)")
            }
        }
    }

    /// A session call: waits for the Request handle (the portal answers at once; the dialog's
    /// answer comes later as the Request's Response), or fires `Session.Close`.
    private func perform(_ call: PortalCall) {
        guard let bus else { return }
        guard call.returnsRequest else {
            bus.send(call.methodCall)
            return
        }
        do {
            let reply = try bus.call(call.methodCall)
            if let path = reply.first?.text { apply(session.handle(.requestHandle(path))) }
        } catch {
            let message = "\(error)"
            apply(session.handle(.callFailed(message)))
        }
    }

    // MARK: - Actions

    private func carryOut(_ item: WorkItem) {
        switch item {
        case .action(let action):
            guard session.activeSession != nil else { return }
            encoder.encode(action, into: &notifies)
            sendNotifies()
            leftovers?.keep(encoder)
            let skipped = encoder.takeSkipped()
            if !skipped.isEmpty {
                let text = String(String.UnicodeScalarView(skipped))
                logger.warning("control: not typed (the keyboard layout changed and has no key for them): \(text)")
            }
        case .releaseAll:
            guard session.activeSession != nil else { return }
            encoder.releaseAll(into: &notifies)
            sendNotifies()
            leftovers?.keep(encoder)
        case .barrier(let done):
            pumpBus()
            done.signal()
        }
    }

    /// Sends the Notify calls one at a time, each after the reply to the one before.
    /// xdg-desktop-portal runs every method call in a thread of its own and forwards it to
    /// the desktop from there, so calls sent back to back can reach the compositor in another
    /// order (seen on GNOME 43: a click's release before its press, leaving the button down;
    /// "Hello" typed "Helo"). It answers a call once it has queued it for the desktop, so
    /// waiting for that answer keeps the order.
    private func sendNotifies() {
        defer { notifies.removeAll(keepingCapacity: true) }
        guard let bus, let path = session.activeSession else { return }
        for notify in notifies {
            do {
                _ = try bus.call(notify.methodCall(session: path), timeout: Self.notifyTimeout)
            } catch {
                refused("\(error)")
            }
        }
    }

    /// How long a Notify call may take to be answered (a portal that hangs costs this per call).
    static let notifyTimeout = 1.0

    private func shutDown() {
        if session.activeSession != nil {
            encoder.releaseAll(into: &notifies)
            sendNotifies()
        }
        apply(session.handle(.stop))
        bus?.close()
        bus = nil
    }
}
/// The bus side of the portal's thread: what arrives on the sd-bus connection (the session's
/// Request responses and Closed signals, the portal's name changing owner, refused calls)
/// goes to the session state machine, whose answer `apply` carries out.
extension PortalLoop {
    /// Reads and writes what is pending and handles what arrived, until nothing is left.
    func pumpBus() {
        while let bus {
            if let error = bus.process() {
                lose(error.message)
                return
            }
            let incoming = bus.takeInbox()
            if incoming.isEmpty { return }
            for message in incoming { handle(message) }
        }
    }

    private func handle(_ message: SDBusIncoming) {
        switch message {
        case .signal(let signal) where signal.interface == PortalBus.request && signal.member == "Response":
            let code = signal.arguments.first?.uint32 ?? 2
            let results = signal.arguments.count > 1 ? signal.arguments[1].entries : [:]
            apply(session.handle(.response(path: signal.path, code: code, results: results, at: clock.now)))
        case .signal(let signal) where signal.interface == PortalBus.session && signal.member == "Closed":
            apply(session.handle(.sessionClosed(path: signal.path)))
        case .signal(let signal) where signal.member == "NameOwnerChanged":
            // (name, old owner, new owner): an old owner that is gone or replaced took its sessions.
            let owners = signal.arguments.compactMap(\.text)
            if owners.count == 3, owners[0] == PortalBus.service, !owners[1].isEmpty {
                apply(session.handle(.portalGone))
            }
        case .signal:
            break
        case .callFailed(let text):
            refused(text)
        }
    }

    func refused(_ text: String) {
        refusedCalls += 1
        if refusedCalls == 1 || refusedCalls.isMultiple(of: 1000) {
            logger.warning("control: the portal refused a call (\(refusedCalls) so far): \(text)")
        }
    }

    private func lose(_ message: String) {
        bus?.close()
        bus = nil
        apply(session.handle(.connectionLost(message)))
    }
}
