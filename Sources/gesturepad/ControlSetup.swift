import Foundation
import GestureControl
import GesturePadHost
import GestureProtocol
import Logging

/// Picks and opens the backend that drives the computer (`--control`), and says why none
/// does when none can.
enum ControlSetup {
    struct Started {
        var context: ControlContext
        var backend: (any ControlBackend)?
    }

    static func start(mode: ControlMode, settings: ControlSettings, logger: Logger) throws -> Started {
        let environment = ProcessInfo.processInfo.environment
        switch mode {
        case .off:
            return Started(context: ControlContext.off(reason: "--control off"), backend: nil)
        case .x11:
            do {
                return try x11(settings: settings, logger: logger)
            } catch {
                throw ServeCommand.Failure("--control x11: \(error.message)")
            }
        case .auto:
            if environment["WAYLAND_DISPLAY"] == nil, let display = environment["DISPLAY"], !display.isEmpty {
                do {
                    return try x11(settings: settings, logger: logger)
                } catch {
                    return Started(context: .off(reason: error.message), backend: nil)
                }
            }
            return Started(context: .off(reason: "no DISPLAY: see docs/control.md"), backend: nil)
        case .uinput, .portal:
            throw ServeCommand.Failure("--control \(mode.rawValue): not available yet: see docs/control.md")
        }
    }

    private static func x11(settings: ControlSettings, logger: Logger) throws(ControlBackendError) -> Started {
        let backend: X11Backend
        do {
            backend = try X11Backend.open(logger: logger)
        } catch let error as ControlBackendError {
            throw error
        } catch {
            throw ControlBackendError("cannot start the x11 backend: \(error)")
        }
        let context = ControlContext(
            status: .active(backend: backend.name), settings: settings, capabilities: X11Backend.capabilities)
        return Started(context: context, backend: backend)
    }
}
