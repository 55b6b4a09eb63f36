import GestureProtocol

/// What `ConnectionHub` asks the transport to do, in order. Connections are named by integer
/// id; the transport maps ids to its own handles. The hub never calls the transport: it
/// returns these, and the transport (the libwebsockets bridge, or a test) carries them out.
enum HubAction: Equatable {
    /// Ask for a writable callback on the connection: frames are queued, or its Close is due.
    case requestWritable(Int)
    /// Write these messages now, in order, each as one text frame (the transport frames them).
    case write(Int, OutboundBatch)
    /// Stop reading from the connection (back-pressure: its send queue is full).
    case pauseReading(Int)
    /// Read from the connection again.
    case resumeReading(Int)
    /// Arm the connection's timer at `deadline` (server clock, ms), replacing an armed one.
    case scheduleWakeup(Int, deadline: Double)
    /// Cancel the connection's timer.
    case cancelWakeup(Int)
    /// The hub started closing the connection: drop it if the close stalls (a peer that never
    /// reads never becomes writable, so its Close could wait forever).
    case limitClosingTime(Int)
    /// Send a Close frame with this code and reason; nothing is written after it.
    case close(Int, code: CloseCode, reason: String)
    /// The page of the connection sent `unpair`: forget its device (the pairing shell's
    /// business, not the transport's; the server hands it over).
    case unpairDevice(Int)
    /// The connection was failed (RFC 6455 §7.1.7) with a Close that is not the hub's: close
    /// the TCP connection right after that Close instead of waiting for an answer.
    case hangUp(Int)
}
