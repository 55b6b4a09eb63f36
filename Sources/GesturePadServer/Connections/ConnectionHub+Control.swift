import GestureControl
import GestureProtocol

/// Control that changes while the server runs (the portal backend: the desktop allows, or
/// ends, its session).
extension ConnectionHub {
    /// The backend became active or inactive (the desktop allowed or ended the portal
    /// session): says so on the terminal, and every open touchpad drives the computer from now
    /// on or stops, and gets the `control` notice. Observers are not concerned.
    func controlStatusChanged(_ status: ControlBackendStatus, now: Double) -> [HubAction] {
        actions.removeAll(keepingCapacity: true)
        guard let backend else { return actions }
        let updated: ControlContext.Status
        switch status {
        case .active: updated = .active(backend: backend.name)
        case .inactive(let reason): updated = .inactive(reason: reason)
        }
        guard updated != control.status else { return actions }
        control.status = updated
        switch status {
        case .active: logger.notice("control is on: the phone drives this computer through \(backend.name)")
        case .inactive(let reason): logger.warning("control is off: \(reason)")
        }
        for id in touchpads {
            guard let connection = connections[id], connection.state.isOpen else { continue }
            output.removeAll()
            connection.session.updateControl(control, into: &output)
            dispatch(connection, now: now)
        }
        return actions
    }
}
