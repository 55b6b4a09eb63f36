import GestureProtocol

/// Where one WebSocket connection stands: the only record of its life (its session speaks the
/// protocol but keeps no lifecycle): each state carries the data that lives only while it lasts
/// — an open connection's timer, a waiting one's unread messages, a closing one's Close. The
/// buffers reused for the connection's whole life (the message being reassembled, the send
/// queue) are the rest of `Connection`. Only `ConnectionHub.transition(_:_:)` changes it.
///
///     open ◀──(admit)── waiting ◀──(hold)── open (proof: none ─challenge→ awaiting ─answer→ judging ─proven→ none)
///       │                  │
///       └──(hub decides to close)──▶ closing ──(Close handed to lws)──▶ closeSent
///       └──(lws's own Close, or the peer's, from open, waiting or closing)──▲
///
/// A connection is born `open`; `closed` (lws lets go of it) removes it from any state.
enum ConnectionState: Equatable {
    /// Receiving and sending.
    case open(Flow)
    /// A new device waits for the computer's user (`--confirm-pairing`): what it sends is kept
    /// unread (`Waiting.held`), its session has not started, no timer runs; its pairing
    /// notice is sent.
    case waiting(Waiting)
    /// The hub is closing with `close`: no more input is processed and no timer runs; the
    /// queued frames are sent first when `close.flush` is set, then the Close frame.
    case closing(CloseRequest, readingPausedAt: Double?)
    /// A Close frame is with lws — ours, its own for a protocol error, or the answer to the
    /// peer's — and lws waits for the other side; nothing more is written (RFC 6455 §5.5.1;
    /// also, a second close from us would make lws drop the socket at once, possibly with a
    /// reset that loses the close frame).
    case closeSent

    /// What an open connection has asked of the transport, and where it stands in the proof
    /// handshake.
    struct Flow: Equatable {
        /// When reading was paused because the send queue passed the high watermark (server
        /// clock, ms); nil while reading.
        var readingPausedAt: Double?
        /// The deadline of the armed timer (server clock, ms); nil when none is armed.
        var wakeup: Double?
        /// The proof handshake (docs/protocol.md "Proof handshake"): `none` once proven, or
        /// when there is nothing to prove.
        var proof = ProofStage.none
        /// What arrived while the answer was judged (the page's `hello`, sent without waiting),
        /// unread until the verdict, and its size: read once the connection is released, or
        /// kept by the `waiting` state when it is held for the computer's user.
        var held: [[UInt8]] = []
        var heldBytes = 0
    }

    /// What a waiting connection keeps.
    struct Waiting: Equatable {
        /// When reading was paused for back-pressure (server clock, ms); nil while reading.
        var readingPausedAt: Double?
        /// The complete messages it sent, unread by its session until it is admitted (in
        /// practice only its `hello`), and their size in all.
        var held: [[UInt8]] = []
        var heldBytes = 0
    }

    /// A close the hub decided.
    struct CloseRequest: Equatable {
        var code: CloseCode
        var reason: String
        /// Whether the frames already queued go out before the Close frame.
        var flush: Bool
    }

    /// A newly opened connection: reading, no timer.
    static let opened = ConnectionState.open(Flow())

    var isOpen: Bool {
        if case .open = self { true } else { false }
    }

    var isClosing: Bool {
        if case .closing = self { true } else { false }
    }

    /// The deadline of the armed timer, if any (only `open` arms one).
    var wakeup: Double? {
        if case .open(let flow) = self { flow.wakeup } else { nil }
    }

    /// When reading was paused for back-pressure, while it is (open, waiting or closing).
    var readingPausedAt: Double? {
        switch self {
        case .open(let flow): flow.readingPausedAt
        case .waiting(let waiting): waiting.readingPausedAt
        case .closing(_, let pausedAt): pausedAt
        case .closeSent: nil
        }
    }

    /// The same state with reading paused since `time` (nil: reading). `closeSent` stays as it is.
    func withReadingPaused(at time: Double?) -> ConnectionState {
        switch self {
        case .open(var flow):
            flow.readingPausedAt = time
            return .open(flow)
        case .waiting(var waiting):
            waiting.readingPausedAt = time
            return .waiting(waiting)
        case .closing(let close, _):
            return .closing(close, readingPausedAt: time)
        case .closeSent:
            return self
        }
    }
}
