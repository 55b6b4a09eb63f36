import GestureControl
import GestureEngine

/// An output for recognized gestures (terminal log, JSON log, hooks).
///
/// The server calls it on its service thread for every event of every session, in order,
/// including the events of a contact cancelled because its connection closed. Implementations
/// must return quickly and never block: slow work (processes, disk) goes to their own threads.
public protocol GestureSink: AnyObject, Sendable {
    /// One recognized gesture event of session `session`.
    func receive(_ event: GestureEvent, session: String)
    /// A touchpad session opened (`true`) or closed (`false`).
    func session(_ session: String, open: Bool)
    /// SIGHUP: reopen files (log rotation).
    func reopen()
    /// Shutdown: deliver what is queued (bounded wait) and release resources.
    func close()
    /// Something session `session` did besides its gestures (a command carried out, a
    /// release by the silence rule), in order with its events. Most sinks ignore it.
    func note(_ note: SessionNote, session: String)
    /// A media player did something (a track started, playback stopped …), on the same
    /// thread, in order. Most sinks ignore it; hooks may act on it.
    func receive(_ event: MediaEvent)
}

extension GestureSink {
    public func note(_ note: SessionNote, session: String) {}
    public func receive(_ event: MediaEvent) {}
}
