import GestureControl
import Logging

/// The `uinput` backend: a virtual pointer-and-keyboard made through `/dev/uinput`, which
/// works in any session (X11, Wayland, console), from a thread of its own (`ActionWorker` +
/// `UInputExecutor`). Characters are sent as US-layout keycodes.
public final class UInputBackend: ControlBackend, WorkerBackend {
    /// Keycodes are read through the desktop's layout: only US-layout ASCII is safe.
    public static let capabilities = ControlCapabilities(characters: .usLayoutASCII)

    public let name = BackendKind.uinput.rawValue
    public var capabilities: ControlCapabilities { Self.capabilities }
    let worker: ActionWorker<UInputExecutor>

    private init(worker: ActionWorker<UInputExecutor>) {
        self.worker = worker
    }

    /// Creates the device "GesturePad pointer and keyboard" at `path` and starts the backend's
    /// thread. Throws a `ControlBackendError` whose message is one line for the user
    /// ("/dev/uinput is not writable: add the udev rule in docs/control.md").
    public static func open(
        path: String = UInputAccess.defaultPath, logger: Logger = Logger(label: "gesturepad.control.uinput")
    ) throws -> UInputBackend {
        let worker = try ActionWorker(name: "gesturepad-uinput", logger: logger) {
            try UInputExecutor.open(path: path, logger: logger)
        }
        return UInputBackend(worker: worker)
    }
}
