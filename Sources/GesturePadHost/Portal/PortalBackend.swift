import Dispatch
import FoundationEssentials
import GestureControl
import GesturePadSystem
import Logging
import Synchronization

/// The `portal` backend: drives a Wayland desktop (GNOME, KDE) through the
/// xdg-desktop-portal RemoteDesktop interface on the session bus, with sd-bus, from a thread
/// of its own: a `WorkerThread` whose turns (`PortalLoop`) wait by themselves, in a `poll` on
/// the bus beside the eventfd its mailbox signals. The desktop asks the user once; with RemoteDesktop version 2 and
/// later the permission is kept through a restore token (`PortalTokenStore`). The session may
/// end at any time (revoked, the compositor restarted): the backend then reports inactive,
/// and asks again when `requestControl()` is called (a touchpad connects).
public final class PortalBackend: ControlBackend {

    public let name = BackendKind.portal.rawValue
    /// What the desktop's keyboard layout types: not known at open (ASCII only), then each
    /// layout the backend's thread reads, reported through `observeLayout` — the desktop drops
    /// a keysym its layout has no key for, so the protocol layer refuses those first.
    public let capabilities = ControlCapabilities(characters: .desktopLayout(nil))
    /// The desktop's keyboard layout, as the backend's thread last read it (nil: not yet).
    private let layouts: ValueRelay<DesktopLayout.Table?>
    /// The portal's RemoteDesktop facts, read at open.
    public let info: PortalProbe.Info
    /// Where the permission is kept (nil: nowhere, the desktop asks at every start).
    public let tokenStore: PortalTokenStore?
    private let mailbox: PortalMailbox
    private let relay: ValueRelay<ControlBackendStatus>
    private let answered: DispatchSemaphore
    private let thread: WorkerThread
    private let logger: Logger

    private init(
        info: PortalProbe.Info, tokenStore: PortalTokenStore?, layouts: ValueRelay<DesktopLayout.Table?>,
        mailbox: PortalMailbox, relay: ValueRelay<ControlBackendStatus>, answered: DispatchSemaphore, thread: WorkerThread,
        logger: Logger
    ) {
        self.info = info
        self.layouts = layouts
        self.tokenStore = tokenStore
        self.mailbox = mailbox
        self.relay = relay
        self.answered = answered
        self.thread = thread
        self.logger = logger
    }

    /// Connects to the session bus, checks the portal, starts the backend's thread and asks
    /// the desktop for a session (the answer comes later: `status`, `waitForAnswer`); follows
    /// the keyboard layout of the Wayland display of `environment`. Throws a one-line
    /// `ControlBackendError` when the portal cannot be used at all.
    public static func open(
        tokenStore: PortalTokenStore?, environment: [String: String] = ProcessInfo.processInfo.environment,
        logger: Logger = Logger(label: "gesturepad.control.portal")
    ) throws -> PortalBackend {
        let desktop = PortalDesktop(currentDesktop: environment["XDG_CURRENT_DESKTOP"])
        let mailbox = try PortalMailbox(capacity: 1024)
        let relay = ValueRelay<ControlBackendStatus>(.notAllowed(reason: PortalSession.Reason.waiting))
        let answered = DispatchSemaphore(value: 0)
        let ready = DispatchSemaphore(value: 0)
        let outcome = OpenOutcome()
        let layouts = ValueRelay<DesktopLayout.Table?>(nil)
        let thread = WorkerThread(name: "gp-portal")
        let confined = ThreadConfined<PortalLoop?>(nil)
        thread.setTurn {
            confined.withValue { loop -> WorkerTurn in
                if let current = loop {
                    let next = current.turn()
                    if next == .exit { loop = nil }
                    return next
                }
                // The first turn: connect, tell `open`, then ask for a session.
                let made = PortalLoop(
                    mailbox: mailbox, relay: relay, tokenStore: tokenStore, layouts: layouts,
                    desktop: desktop, answered: answered, logger: logger)
                do {
                    try made.connect()
                    outcome.set(.success(made.info))
                } catch {
                    outcome.set(.failure(error))
                    ready.signal()
                    return .exit
                }
                ready.signal()
                made.begin()
                loop = made
                return .again
            }
        }
        thread.start()
        ready.wait()
        let info = try outcome.get().get()
        return PortalBackend(
            info: info, tokenStore: tokenStore, layouts: layouts, mailbox: mailbox, relay: relay,
            answered: answered, thread: thread, logger: logger)
    }

    /// Waits (up to `timeout` seconds) for the desktop's first answer, and returns the status.
    /// A restored permission answers at once; a dialog waits for the user.
    public func waitForAnswer(timeout: Double) -> ControlBackendStatus {
        if answered.wait(timeout: .now() + timeout) == .success { answered.signal() }
        return relay.value
    }

    public var status: ControlBackendStatus { relay.value }

    public func observeStatus(_ observer: @escaping @Sendable (ControlBackendStatus) -> Void) {
        relay.observe(observer)
    }

    public func observeLayout(_ observer: @escaping @Sendable (DesktopLayout.Table) -> Void) {
        layouts.observe { table in
            if let table { observer(table) }
        }
    }

    public func requestControl() {
        guard !relay.value.isActive else { return }
        mailbox.postRequestControl()
    }

    public func perform(_ actions: ArraySlice<HostAction>) {
        guard !actions.isEmpty else { return }
        mailbox.post(actions)
    }

    public func releaseAll() {
        mailbox.post(marker: .releaseAll)
    }

    /// Releases what is held, closes the session and the bus, and waits (up to 2 s) for the
    /// thread.
    public func stop() {
        guard mailbox.postStop() else { return }
        if !thread.join(timeout: 2) {
            logger.error("control: the portal thread did not stop within 2 s")
        }
    }
}

/// The result of connecting, handed from the backend's thread to `open`.
private final class OpenOutcome: Sendable {
    private let value = Mutex<Result<PortalProbe.Info, any Error>?>(nil)

    func set(_ result: Result<PortalProbe.Info, any Error>) { value.withLock { $0 = result } }
    func get() -> Result<PortalProbe.Info, any Error> {
        value.withLock { $0 } ?? .failure(ControlBackendError.portal("the portal thread did not start"))
    }
}
