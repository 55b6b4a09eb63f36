import GestureControl
import GesturePadSystem
import Logging
import Synchronization

/// Carries `HostAction`s out through a wlroots compositor's virtual pointer and keyboard
/// (`VirtualInputConnection`), encoded by `WlrootsActionEncoder`; the `wlroots` backend's
/// `ActionWorker` thread owns it. One pointer and one keyboard for as long as the compositor
/// lives (a virtual keyboard that goes away leaves the seat without a keymap, and a new device
/// loses its first events while the seat changes). The connection is read at every batch and,
/// idle, every `idleCheckInterval`; when the compositor went away, the status turns inactive
/// with the reason, actions are dropped, and a new connection is tried once a touchpad
/// connects (`retry`).
final class WlrootsExecutor: ActionExecutor {
    private var connection: VirtualInputConnection?
    private var encoder: WlrootsActionEncoder
    /// The encoder a new connection starts from (its keymap: the one named, or the seat's).
    private var initialEncoder: WlrootsActionEncoder
    private var requests: [VirtualInputRequest] = []
    private let relay: ValueRelay<ControlBackendStatus>
    private let retry: RetryFlag
    private let logger: Logger
    private let clock: any WorkerClock
    /// When (the worker's clock, ms) the idle connection is read next.
    private var nextCheck: Double

    /// How often (ms) an idle connection is read, so that a compositor that went away is
    /// noticed without waiting for the phone's next action.
    static let idleCheckInterval = 1_000.0

    /// Connects (throws the one-line `ControlBackendError` of a compositor without the
    /// protocols) and sends the start: the keymap, and one release of every button. With
    /// `followSeat`, the keymap's base is the seat's own keymap when it has one (the user's
    /// layout, so shortcuts land on the user's keys), else `encoder`'s.
    init(
        encoder: WlrootsActionEncoder, followSeat: Bool, relay: ValueRelay<ControlBackendStatus>, retry: RetryFlag,
        logger: Logger, clock: any WorkerClock
    ) throws {
        self.clock = clock
        nextCheck = clock.now + Self.idleCheckInterval
        self.encoder = encoder
        initialEncoder = encoder
        self.relay = relay
        self.retry = retry
        self.logger = logger
        requests.reserveCapacity(256)
        let connection = try VirtualInputConnection.connect(readSeatKeymap: followSeat)
        self.connection = connection
        if followSeat {
            if let text = connection.seatKeymap, let seat = XKBKeymap(text: text), let first = seat.layouts.first {
                initialEncoder = WlrootsActionEncoder(layout: EvdevLayout(first), keymap: VirtualKeymap(base: seat.text))
                logger.notice(
                    "control: typing on the seat's keyboard layout (\(first.name)), any other character on spare keys")
            } else {
                logger.notice(
                    "control: the seat has no keyboard layout yet: typing on US keys (--keyboard-layout names another), any other character on spare keys"
                )
            }
        }
        start()
    }

    func execute(_ action: HostAction) {
        guard connection != nil else { return }
        encoder.encode(action, into: &requests)
    }

    func flush() {
        if connection == nil, retry.take() { reconnect() }
        send()
    }

    var nextDeadline: Double? { connection == nil ? nil : nextCheck }

    func advance(to now: Double) {
        guard now >= nextCheck else { return }
        send()
    }

    func releaseAll() {
        guard connection != nil else { return }
        encoder.releaseAll(into: &requests)
        send()
    }

    func close() {
        releaseAll()
        connection?.close()
        connection = nil
    }

    /// Sends what is encoded, flushing every few requests and at the end.
    private func send() {
        defer { requests.removeAll(keepingCapacity: true) }
        guard let connection else { return }
        nextCheck = clock.now + Self.idleCheckInterval
        for request in requests where !connection.send(request) {
            return lose()
        }
        if !connection.flush() { lose() }
    }

    private func start() {
        encoder = initialEncoder
        encoder.start(into: &requests)
        send()
        if connection != nil { relay.report(.active) }
    }

    private func reconnect() {
        do {
            connection = try VirtualInputConnection.connect()
            logger.notice("control: the Wayland compositor is back: wlroots virtual pointer and keyboard again")
            start()
        } catch {
            let message = "\(error)"
            relay.report(.inactive(reason: "\(WlrootsBackend.goneReason) (\(message))"))
        }
    }

    private func lose() {
        connection?.close()
        connection = nil
        requests.removeAll(keepingCapacity: true)
        logger.error("control: \(WlrootsBackend.goneReason)")
        relay.report(.inactive(reason: WlrootsBackend.goneReason))
    }
}

/// Set by `requestControl` (a touchpad connected), taken by the backend's thread: try to
/// connect again.
final class RetryFlag: Sendable {
    private let requested = Atomic<Bool>(false)

    func request() { requested.store(true, ordering: .releasing) }
    func take() -> Bool { requested.exchange(false, ordering: .acquiringAndReleasing) }
}
