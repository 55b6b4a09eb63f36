import FoundationEssentials
import GestureControl
import GesturePadHost
import GestureProtocol
import Logging

/// Picks the backend that drives the computer (`--control`, through the pure
/// `BackendChooser`), opens it, and says why none does when none can.
enum ControlSetup {
    struct Started {
        var context: ControlContext
        var backend: (any ControlBackend)?
        /// A line for the banner, under the control line (the portal: whether and where the
        /// desktop's permission is kept).
        var note: String?
        /// The backend's kind (nil: none), whose defaults a reload's settings start from.
        var kind: BackendKind? = nil
    }

    /// How long start-up waits for the portal's first answer: a kept permission answers at
    /// once; a dialog is left open (the banner says control waits for it).
    static let portalAnswerWait = 1.0

    /// `settings` gives the mapping settings for the backend chosen (its default acceleration);
    /// `stateDirectory` keeps the portal's permission; `touchpadOutput` is
    /// `--test-touchpad-output` (benchmarks only).
    static func start(
        mode: ControlMode, settings: (BackendKind) -> ControlSettings, keyboardLayout: String? = nil,
        stateDirectory: String, touchpadOutput: String? = nil, logger: Logger
    ) throws -> Started {
        let environment = ProcessInfo.processInfo.environment
        if let keyboardLayout {
            do {
                try UInputBackend.checkKeyboardLayout(keyboardLayout)
            } catch {
                throw CommandFailure.option("--keyboard-layout", "\(error)")
            }
        }
        if let touchpadOutput, mode == .touchpad {
            let backend = try TouchpadBackend.open(
                writingTo: touchpadOutput, keyboardLayout: keyboardLayout, environment: environment, logger: logger)
            let context = ControlContext(
                status: .active(backend: backend.name), settings: settings(.touchpad),
                capabilities: backend.capabilities)
            return Started(context: context, backend: backend, kind: .touchpad)
        }
        let facts = ControlEnvironment.current(environment: environment, for: mode)
        switch BackendChooser.choose(mode, in: facts) {
        case .off(let reason):
            return Started(context: .off(reason: reason), backend: nil)
        case .failure(let message):
            throw CommandFailure.option("--control \(mode.rawValue)", message)
        case .backend(let kind):
            do {
                let backend = try open(
                    kind, keyboardLayout: keyboardLayout, stateDirectory: stateDirectory, environment: environment,
                    logger: logger)
                let portal = backend as? PortalBackend
                let status = portal?.waitForAnswer(timeout: portalAnswerWait) ?? backend.status
                let context = ControlContext(
                    status: status.isActive ? .active(backend: backend.name) : .inactive(reason: reasonText(status)),
                    settings: settings(kind), capabilities: backend.capabilities)
                let note = portal.map(permissionNote) ?? (kind == .wlroots ? wlrootsNote(mode: mode) : nil)
                return Started(context: context, backend: backend, note: note, kind: kind)
            } catch {
                let message = "\(error)"
                // `auto` runs on without control; a backend asked for by name must work.
                guard mode == .auto else { throw CommandFailure.option("--control \(mode.rawValue)", message) }
                return Started(context: .off(reason: message), backend: nil)
            }
        }
    }

    private static func open(
        _ kind: BackendKind, keyboardLayout: String?, stateDirectory: String, environment: [String: String],
        logger: Logger
    ) throws -> any ControlBackend {
        switch kind {
        case .x11: try X11Backend.open(guardExecutable: "/proc/self/exe", logger: logger)
        case .uinput: try UInputBackend.open(keyboardLayout: keyboardLayout, environment: environment, logger: logger)
        case .touchpad:
            try TouchpadBackend.open(keyboardLayout: keyboardLayout, environment: environment, logger: logger)
        case .portal:
            try PortalBackend.open(
                tokenStore: PortalTokenStore(directory: stateDirectory), environment: environment, logger: logger)
        case .wlroots: try WlrootsBackend.open(keyboardLayout: keyboardLayout, logger: logger)
        }
    }

    private static func reasonText(_ status: ControlBackendStatus) -> String { status.reason ?? "" }

    /// Why the wlroots protocols drive the computer, for the banner.
    static func wlrootsNote(mode: ControlMode) -> String {
        let why =
            mode == .auto
            ? "No RemoteDesktop portal answered and /dev/uinput is not writable, so" : "--control wlroots:"
        return
            "\(why) the Wayland compositor's virtual pointer and keyboard (zwlr_virtual_pointer_manager_v1, zwp_virtual_keyboard_manager_v1) are used: no permission asked."
    }

    /// What happens to the desktop's permission, for the banner.
    static func permissionNote(_ portal: PortalBackend) -> String {
        guard portal.info.version >= 2 else {
            return
                "This desktop's RemoteDesktop portal (version \(portal.info.version)) cannot keep the permission: it asks at every start."
        }
        guard let store = portal.tokenStore else {
            return "No state directory (HOME is not set): the desktop asks for permission at every start."
        }
        return "The desktop's permission is kept in \(store.path) (delete it to be asked again)."
    }
}
