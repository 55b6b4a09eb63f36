import GestureProtocol

/// The server-side record of one WebSocket connection, the hub's: where it stands, its protocol
/// session (which also knows the connection's role, from its `hello`), and the two buffers it
/// reuses for its whole life: the message being reassembled and its outbound queue.
final class Connection {
    let id: Int
    /// The session id as it appears on the wire (`"3"`).
    let sessionName: String
    var session: ProtocolSession
    /// Where it stands: read by anyone, moved only by the hub's transition function, which alone
    /// holds the key `enter` asks for.
    private(set) var state = ConnectionState.opened
    /// The text message being reassembled from its fragments.
    var message: [UInt8] = []
    var outbound = OutboundQueue()
    /// The sealing of `text`, `key` and `button` (nil: a connection that did not prove, which
    /// may send them plain): the two directions' keys and counters, for the connection's life.
    var seal: SealedChannel?

    init(id: Int, session: ProtocolSession) {
        self.id = id
        self.sessionName = session.sessionID
        self.session = session
    }

    /// Empties `message` once it is handled, keeping its buffer for the next one unless a large
    /// message grew it past `OutboundQueue.keptCapacity` (given back then, not kept for the
    /// connection's life).
    func clearMessage() {
        message.removeAll(keepingCapacity: message.capacity <= OutboundQueue.keptCapacity)
    }

    /// Moves the connection to `next` (`ConnectionHub.transition(_:_:)`).
    func enter(_ next: ConnectionState, _: ConnectionHub.TransitionKey) {
        state = next
    }

    /// The role the connection declared in its `hello`, if any.
    var role: ConnectionRole? { session.role }
}

/// A connection's stage in the proof handshake: `none` once it proved (or never had to).
enum ProofStage: Equatable {
    case none
    /// The challenge is sent; the next message is the page's answer.
    case awaiting
    /// The answer is with the shell; what arrives meanwhile is kept unread.
    case judging
}
