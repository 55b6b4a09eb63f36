import GestureProtocol

/// What the transport must do on `SERVER_WRITEABLE`.
public enum WriteStep: Equatable, Sendable {
    /// Nothing to send.
    case idle
    /// Send these bytes of the scratch buffer as they are: `frames` complete WebSocket text
    /// frames, headers included, written together (one `send()` instead of one per frame).
    case frames(bytes: Int, frames: Int)
    /// Send a close frame with this code and reason, then drop the connection.
    case close(code: CloseCode, reason: String)
}
