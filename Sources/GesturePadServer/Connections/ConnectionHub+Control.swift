import GestureControl
import GesturePadSettings
import GestureProtocol

/// Control that changes while the server runs (the portal backend: the desktop allows, or
/// ends, its session): what `handle(_:)` makes of the backend's reports.
extension ConnectionHub {
    /// The status `control` takes when the backend reports `status` (`HubInput.controlStatusChanged`),
    /// said on the terminal; nil when nothing changes (the same status, or no backend).
    func controlStatus(after status: ControlBackendStatus) -> ControlContext.Status? {
        guard let backendName else { return nil }
        let updated: ControlContext.Status
        switch status {
        case .active: updated = .active(backend: backendName)
        case .inactive(let reason), .notAllowed(let reason): updated = .inactive(reason: reason)
        }
        guard updated != control.status else { return nil }
        switch status {
        case .active: logger.notice("control is on: the phone drives this computer through \(backendName)")
        case .inactive(let reason): logger.warning("control is off: \(reason)")
        // The person has not allowed it (yet): their choice, not a fault.
        case .notAllowed(let reason): logger.notice("control is off: \(reason)")
        }
        return updated
    }
}
