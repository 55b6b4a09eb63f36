import GestureProtocol

/// What the transport must do after handing a received chunk to `ConnectionHub`.
public enum ReceiveVerdict: Equatable, Sendable {
    /// Go on.
    case proceed
    /// Close the connection now with this code and reason (binary frame, oversize
    /// message, invalid UTF-8).
    case close(code: CloseCode, reason: String)
}

/// What the transport must do on `SERVER_WRITEABLE`.
public enum WriteStep: Equatable, Sendable {
    /// Nothing to send.
    case idle
    /// Send the text frame of this length placed in the scratch buffer after the headroom.
    case frame(length: Int)
    /// Send a close frame with this code and reason, then drop the connection.
    case close(code: CloseCode, reason: String)
}
