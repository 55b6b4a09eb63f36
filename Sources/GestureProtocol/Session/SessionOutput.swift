import GestureControl
import GestureEngine

/// What one call into `ProtocolSession` produced. Reused across calls (call `removeAll()`),
/// so the hot path does not allocate.
public struct SessionOutput: Sendable {
    /// Encoded JSON text frames for this connection, in order.
    public var frames = FrameBuffer()
    /// The gesture events recognized (for logs, hooks); their encoded frames are in `frames`
    /// with kind `.gesture` (the same bytes go to observers).
    public var events: [GestureEvent] = []
    /// What the computer is to do (a touchpad of a server that controls it), in order.
    public var actions: [HostAction] = []
    /// Commands carried out and releases by the silence rule, for the terminal log.
    public var notes: [SessionNote] = []
    /// Set when a valid `hello` arrived in this call.
    public var helloRole: ConnectionRole? = nil
    /// Set when the connection must be closed, with a reason for the close frame: the host
    /// feeds the session nothing more but its `close(now:into:)`.
    public var close: (code: CloseCode, reason: String)? = nil
    /// Set when the page sent `unpair` in this call (additive): the server forgets its device.
    public var unpairRequested = false
    /// What the page asked of the computer's media players in this call (additive).
    public var mediaCommands: [MediaCommand] = []
    /// Set when the page asked to hear the media players in this call: the host tells it their
    /// state now.
    public var mediaWatchStarted = false

    public init() {}

    public mutating func removeAll() {
        frames.removeAll()
        events.removeAll(keepingCapacity: true)
        actions.removeAll(keepingCapacity: true)
        notes.removeAll(keepingCapacity: true)
        helloRole = nil
        close = nil
        unpairRequested = false
        mediaCommands.removeAll(keepingCapacity: true)
        mediaWatchStarted = false
    }
}
