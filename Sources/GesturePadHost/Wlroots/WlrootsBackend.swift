import FoundationEssentials
import GestureControl
import GesturePadSystem
import Logging

/// The `wlroots` backend: a virtual pointer (`zwlr_virtual_pointer_manager_v1`) and a virtual
/// keyboard (`zwp_virtual_keyboard_manager_v1`) of the Wayland compositor — Sway and the other
/// wlroots compositors offer them to every client, with no portal, no root setup and no
/// permission asked. From a thread of its own (`ActionWorker` + `WlrootsExecutor`). Types any
/// Unicode: characters the keyboard layout lacks are bound to spare keys of the keymap it
/// uploads.
public final class WlrootsBackend: ControlBackend, WorkerBackend {
    /// The status's reason when the compositor went away.
    static let goneReason = "the Wayland compositor closed the connection: control comes back when a touchpad connects"

    public let name = BackendKind.wlroots.rawValue
    /// Any printable Unicode: the keymap gets a key for whatever the layout lacks.
    public let capabilities = ControlCapabilities(characters: .anyUnicode)
    let worker: ActionWorker<WlrootsExecutor>
    private let relay: ValueRelay<ControlBackendStatus>
    private let retry: RetryFlag

    private init(worker: ActionWorker<WlrootsExecutor>, relay: ValueRelay<ControlBackendStatus>, retry: RetryFlag) {
        self.worker = worker
        self.relay = relay
        self.retry = retry
    }

    /// Connects to the compositor of `WAYLAND_DISPLAY`, makes the two devices with the keymap of
    /// `keyboardLayout` (an XKB name, `de+nodeadkeys`; nil: the seat's own keymap, else US) and
    /// starts the thread. Throws a one-line `ControlBackendError` when the compositor lacks
    /// either protocol.
    public static func open(
        keyboardLayout: String? = nil, logger: Logger = Logger(label: "gesturepad.control.wlroots")
    ) throws -> WlrootsBackend {
        let name = keyboardLayout ?? "us"
        guard let (layoutName, variant) = EvdevLayout.parse(name),
            let compiled = XKBKeymap(layout: layoutName, variant: variant), let first = compiled.layouts.first
        else { throw ControlBackendError.keyboardLayout("keyboard layout \"\(name)\": XKB has no such layout") }
        let encoder = WlrootsActionEncoder(layout: EvdevLayout(first), keymap: VirtualKeymap(base: compiled.text))
        let relay = ValueRelay<ControlBackendStatus>(.active)
        let retry = RetryFlag()
        // One clock for the worker and its executor: the deadlines of one are the other's.
        let clock = SystemWorkerClock()
        let worker = try ActionWorker(name: "gp-wlroots", clock: clock, logger: logger) {
            try WlrootsExecutor(
                encoder: encoder, followSeat: keyboardLayout == nil, relay: relay, retry: retry, logger: logger,
                clock: clock)
        }
        return WlrootsBackend(worker: worker, relay: relay, retry: retry)
    }

    /// Whether the compositor of `WAYLAND_DISPLAY` offers both protocols (one round trip).
    public static func compositorOffersVirtualInput() -> Bool {
        VirtualInputConnection.compositorOffersBoth()
    }

    public var status: ControlBackendStatus { relay.value }

    public func observeStatus(_ observer: @escaping @Sendable (ControlBackendStatus) -> Void) {
        relay.observe(observer)
    }

    /// Connects again after the compositor went away (on the backend's thread: the release
    /// marker wakes it, and holds nothing while the backend is inactive).
    public func requestControl() {
        guard !relay.value.isActive else { return }
        retry.request()
        worker.releaseAll()
    }
}
