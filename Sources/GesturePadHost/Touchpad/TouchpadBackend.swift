import FoundationEssentials
import GestureControl
import GesturePadSystem
import Logging

/// The `touchpad` backend (CONTROL.md "The `touchpad` backend"): the phone's touches become the
/// contacts of a virtual multitouch clickpad, "GesturePad touchpad", made through
/// `/dev/uinput`, so the desktop's own input stack (libinput: GNOME, KDE, Sway, X11 with the
/// libinput driver) applies the user's touchpad settings, its gestures and its kinetic
/// scrolling. A mouse or pen on the page, keys and the button bar go to a second device, the
/// `uinput` backend's pointer-and-keyboard. One thread of its own (`ActionWorker` +
/// `TouchpadExecutor`).
public final class TouchpadBackend: ControlBackend, WorkerBackend {
    /// Keycodes are read through the desktop's layout, as with `uinput`; touches pass through.

    public let name = BackendKind.touchpad.rawValue
    /// What it types (the keyboard layout named, else US ASCII); touches pass through.
    public let capabilities: ControlCapabilities
    let worker: ActionWorker<TouchpadExecutor>

    private init(worker: ActionWorker<TouchpadExecutor>, capabilities: ControlCapabilities) {
        self.worker = worker
        self.capabilities = capabilities
    }

    /// Makes the pointer-and-keyboard device at `path` now (so a `/dev/uinput` that is not
    /// writable stops the start with a one-line `ControlBackendError`) and starts the thread;
    /// the touchpad itself is made when a touchpad connection says `hello`, for its surface.
    public static func open(
        path: String = UInputAccess.defaultPath, keyboardLayout: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        logger: Logger = Logger(label: "gesturepad.control.touchpad")
    ) throws -> TouchpadBackend {
        let layout = try EvdevLayout.forDesktop(named: keyboardLayout, environment: environment, logger: logger)
        // One clock for the worker and its executor: the deadlines of one are the other's.
        let clock = SystemWorkerClock()
        let worker = try ActionWorker(name: "gp-touchpad", onCaller: true, clock: clock, logger: logger) {
            let pointer = try UInputExecutor.open(path: path, layout: layout, logger: logger)
            return TouchpadExecutor(pointer: pointer, logger: logger, clock: clock) { spec in
                try UInputDevice.create(path: path, spec: spec)
            }
        }
        return TouchpadBackend(worker: worker, capabilities: layout.capabilities(takesContacts: true))
    }

    /// The backend with its touchpad's events written to the file at `path` (a FIFO) instead
    /// of a uinput device, and the pointer-and-keyboard's to /dev/null: the server's whole way
    /// from a frame to the device, where there is no /dev/uinput (`serve
    /// --test-touchpad-output`, bench/touchpad_latency.py). Never for normal use.
    /// The keyboard layout is found as for the real device (the tests of finding it on a real
    /// desktop use this).
    public static func open(
        writingTo path: String, keyboardLayout: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment, logger: Logger
    ) throws -> TouchpadBackend {
        let layout = try EvdevLayout.forDesktop(named: keyboardLayout, environment: environment, logger: logger)
        // One clock for the worker and its executor: the deadlines of one are the other's.
        let clock = SystemWorkerClock()
        let worker = try ActionWorker(name: "gp-touchpad", onCaller: true, clock: clock, logger: logger) {
            let sink = try FileOutput(path: "/dev/null")
            let pointer = UInputExecutor(writingTo: sink.fileDescriptor, layout: layout, logger: logger, keeping: sink)
            return TouchpadExecutor(pointer: pointer, logger: logger, clock: clock) { _ in
                try FileOutput(path: path)
            }
        }
        return TouchpadBackend(worker: worker, capabilities: layout.capabilities(takesContacts: true))
    }
}
