import GestureProtocol

/// The server-side state of one WebSocket connection: its protocol session, the message
/// being reassembled, its outbound queue and where it stands in its life.
final class Connection {
    /// Where a connection stands.
    enum Phase: Equatable {
        /// Receiving and sending.
        case open
        /// Closing with `code`: no more input is processed; queued frames are sent first
        /// when `flush` is set, then the close frame.
        case closing(code: CloseCode, reason: String, flush: Bool)
        /// A Close frame is with lws — ours, its own for a protocol error, or the answer to the
        /// peer's — and lws waits for the other side; nothing more is written (RFC 6455 §5.5.1;
        /// also, a second close from us would make lws drop the socket at once, possibly with a
        /// reset that loses the close frame).
        case closeSent
    }

    let id: Int
    /// The session id as it appears on the wire (`"3"`).
    let sessionName: String
    var session: ProtocolSession
    var role: ConnectionRole?
    var phase: Phase = .open
    /// The text message being reassembled from its fragments.
    var message: [UInt8] = []
    var outbound = OutboundQueue()
    /// False while reading is paused because `outbound` is over the high watermark.
    var receiving = true
    /// When reading was paused (server clock, ms), while it is.
    var pausedAt: Double?
    /// The timer deadline the transport has armed (server clock, ms).
    var armedWakeup: Double?

    init(id: Int, session: ProtocolSession) {
        self.id = id
        self.sessionName = session.sessionID
        self.session = session
    }

    var isOpen: Bool { phase == .open }
}
