import FoundationEssentials
import GestureControl
import Logging

/// The `uinput` backend: a virtual pointer-and-keyboard made through `/dev/uinput`, which
/// works in any session (X11, Wayland, console), from a thread of its own (`ActionWorker` +
/// `UInputExecutor`). Characters are sent as the key codes of the desktop's keyboard layout
/// (`EvdevLayout.forDesktop`: named, else asked of the desktop, else US).
public final class UInputBackend: ControlBackend, WorkerBackend {
    /// Keycodes are read through the desktop's layout: without a named layout, only US-layout
    /// ASCII is safe.

    public let name = BackendKind.uinput.rawValue
    public let capabilities: ControlCapabilities
    let worker: ActionWorker<UInputExecutor>

    private init(worker: ActionWorker<UInputExecutor>, capabilities: ControlCapabilities) {
        self.worker = worker
        self.capabilities = capabilities
    }

    /// Creates the device "GesturePad pointer and keyboard" at `path` and starts the backend's
    /// thread. Throws a `ControlBackendError` whose message is one line for the user
    /// ("/dev/uinput is not writable: add the udev rule in docs/control.md").
    public static func open(
        path: String = UInputAccess.defaultPath, keyboardLayout: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        logger: Logger = Logger(label: "gesturepad.control.uinput")
    ) throws -> UInputBackend {
        let layout = try EvdevLayout.forDesktop(named: keyboardLayout, environment: environment, logger: logger)
        let worker = try ActionWorker(name: "gp-uinput", onCaller: true, logger: logger) {
            try UInputExecutor.open(path: path, layout: layout, logger: logger)
        }
        return UInputBackend(worker: worker, capabilities: layout.capabilities(takesContacts: false))
    }

    /// Throws the one-line `ControlBackendError` of a keyboard layout name that is not one XKB
    /// layout (checked before any backend is chosen: a wrong name stops the start, even with
    /// `auto`).
    public static func checkKeyboardLayout(_ name: String) throws {
        _ = try EvdevLayout.compile(name)
    }
}
