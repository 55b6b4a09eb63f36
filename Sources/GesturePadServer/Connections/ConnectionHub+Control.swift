import GestureControl
import GesturePadSettings
import GestureProtocol

/// Control that changes while the server runs (the portal backend: the desktop allows, or
/// ends, its session), and the settings a reload changes.
extension ConnectionHub {
    /// The backend became active or inactive (`HubInput.controlStatusChanged`): says so on the
    /// terminal, and every open touchpad drives the computer from now on or stops, and gets the
    /// `control` notice (`ConnectionEvent.controlChanged`); a connection still before its hello
    /// welcomes with the new status. Observers are not told; without a backend nothing changes.
    func controlStatusChanged(_ status: ControlBackendStatus, now: Double) {
        guard let backendName else { return }
        let updated: ControlContext.Status
        switch status {
        case .active: updated = .active(backend: backendName)
        case .inactive(let reason): updated = .inactive(reason: reason)
        }
        guard updated != control.status else { return }
        control.status = updated
        switch status {
        case .active: logger.notice("control is on: the phone drives this computer through \(backendName)")
        case .inactive(let reason): logger.warning("control is off: \(reason)")
        }
        // Every open connection, not only touchpads: one that has not said hello yet must
        // welcome with the new status (its session took the old one when it opened).
        for id in connections.keys.sorted() { signal(.controlChanged(now: now), to: id) }
    }

    /// The configuration was read again (`HubInput.reconfigure`): the next sessions get its
    /// thresholds and mapping settings — open ones keep theirs, so a phone's own changes to its
    /// settings and a contact in progress stay as they are — and the sinks its hook rules.
    func reconfigure(_ settings: ReloadedSettings) {
        configuration.gestures = settings.gestures
        if let mapping = settings.control { control.settings = mapping }
        actions.append(.replaceHooks(settings.hooks))
    }
}
