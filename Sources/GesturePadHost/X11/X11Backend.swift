import GestureControl
import Logging

/// The `x11` backend: drives the X server named by `DISPLAY` through the XTest extension,
/// from a thread of its own (`ActionWorker` + `X11Executor`).
public final class X11Backend: ControlBackend, WorkerBackend {

    public let name = BackendKind.x11.rawValue
    /// Any printable Unicode: characters the layout lacks are typed through a spare keycode.
    public var capabilities: ControlCapabilities { ControlCapabilities(characters: .anyUnicode, spotlight: true) }
    let worker: ActionWorker<X11Executor>

    private init(worker: ActionWorker<X11Executor>) {
        self.worker = worker
    }

    /// Connects to `displayName` (nil: the `DISPLAY` environment variable) and starts the
    /// backend's thread. Throws a `ControlBackendError` whose message is one line for the
    /// user: "cannot open X display :0: …", "the X server has no XTEST extension".
    ///
    /// `guardExecutable` is this program (`/proc/self/exe`), started as `x11-release-guard`
    /// so that nothing stays pressed if the server dies (`X11ReleaseGuard`); nil: no guard
    /// (the tests of the backend alone).
    public static func open(
        displayName: String? = nil, guardExecutable: String? = nil,
        logger: Logger = Logger(label: "gesturepad.control.x11")
    ) throws -> X11Backend {
        let worker = try ActionWorker(name: "gp-x11", logger: logger) {
            try X11Executor.open(displayName: displayName, guardExecutable: guardExecutable, logger: logger)
        }
        return X11Backend(worker: worker)
    }
}
