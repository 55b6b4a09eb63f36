/// CONTRACT — keeps what touchpad sessions sent, frame by frame (`gesturepad serve --record`),
/// so a session can be replayed later (`TraceFormat`).
///
/// The server calls it on its service thread, in order: `began` with the frame that held a
/// touchpad's `hello`, `record` with every later frame the session handled, exactly as
/// received, and `ended` when the connection closed. Implementations must return at once and
/// never block: the disk is their own thread's business.
public protocol InputRecorder: AnyObject, Sendable {
    /// Touchpad session `session` began with `frame` (the frame holding its `hello`).
    func began(_ session: String, with frame: [UInt8])
    /// A later frame of an open session.
    func record(_ session: String, _ frame: [UInt8])
    /// The session's connection closed.
    func ended(_ session: String)
    /// Shutdown: write what is queued (bounded wait) and close every file.
    func close()
}
