import Foundation
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
    }

    static func start(mode: ControlMode, settings: ControlSettings, logger: Logger) throws -> Started {
        let facts = ControlEnvironment.current(environment: ProcessInfo.processInfo.environment)
        switch BackendChooser.choose(mode, in: facts) {
        case .off(let reason):
            return Started(context: .off(reason: reason), backend: nil)
        case .failure(let message):
            throw ServeCommand.Failure("--control \(mode.rawValue): \(message)")
        case .backend(let kind):
            do {
                let backend = try open(kind, logger: logger)
                let context = ControlContext(
                    status: .active(backend: backend.name), settings: settings, capabilities: kind.capabilities)
                return Started(context: context, backend: backend)
            } catch {
                let message = (error as? ControlBackendError)?.message ?? "\(error)"
                // `auto` runs on without control; a backend asked for by name must work.
                guard mode == .auto else { throw ServeCommand.Failure("--control \(mode.rawValue): \(message)") }
                return Started(context: .off(reason: message), backend: nil)
            }
        }
    }

    private static func open(_ kind: BackendKind, logger: Logger) throws -> any ControlBackend {
        switch kind {
        case .x11: try X11Backend.open(logger: logger)
        case .uinput: try UInputBackend.open(logger: logger)
        case .portal: throw ControlBackendError("the portal backend (Wayland) is not available yet: see docs/control.md")
        }
    }
}
