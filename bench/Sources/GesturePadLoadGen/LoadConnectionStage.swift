/// Where one load-generator connection is in its life: the client's one lifecycle, moved only
/// by `after(_:)`. (The client's, not the server's `ConnectionState`.)
enum LoadConnectionStage: Equatable {
    /// The TCP connection and the WebSocket handshake are under way.
    case connecting
    /// Gesture server: the handshake is done and the `hello` is to be written.
    case greeting
    /// Gesture server: the `hello` is written; no `welcome` yet.
    case awaitingWelcome
    /// Welcomed (or, on an echo server, the handshake done): sends pointer frames whenever the
    /// run is sending.
    case running
    /// The server sent a close frame; lws closes the connection next. Sends nothing more.
    case closing
    /// Closed after its handshake.
    case closed
    /// Failed before its handshake completed.
    case failed

    /// What happens to a connection: lws events, and its own `hello` going out.
    enum Event: Equatable {
        /// The handshake completed; `echo` when the server is an echo server (no hello).
        case established(echo: Bool)
        case helloWritten
        case welcomed
        /// The server's close frame arrived.
        case peerClosing
        case closed
        /// lws gave up on the connection (refused, reset, handshake failed).
        case connectionError
    }

    /// The stage after `event`. An event that means nothing in this stage (a second
    /// `welcome`, anything after the end) leaves it as it is.
    func after(_ event: Event) -> LoadConnectionStage {
        switch event {
        case .established(let echo):
            return self == .connecting ? (echo ? .running : .greeting) : self
        case .helloWritten:
            return self == .greeting ? .awaitingWelcome : self
        case .welcomed:
            return self == .awaitingWelcome ? .running : self
        case .peerClosing:
            switch self {
            case .connecting, .greeting, .awaitingWelcome, .running: return .closing
            case .closing, .closed, .failed: return self
            }
        case .closed:
            return self == .failed ? self : .closed
        case .connectionError:
            return self == .closed ? self : .failed
        }
    }

    /// No longer on its way to `running`: there, or gone (what the connecting phase waits for).
    var isSettled: Bool {
        switch self {
        case .connecting, .greeting, .awaitingWelcome: false
        case .running, .closing, .closed, .failed: true
        }
    }
}
