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
        switch mode {
        case .off:
            return Started(context: ControlContext.off(reason: "--control off"), backend: nil)
        default:
            // Filled in with the backends (X11, uinput).
            return Started(context: ControlContext.off(reason: "no backend yet"), backend: nil)
        }
    }
}
