import GestureProtocol

/// The connection's side of the proof handshake (docs/protocol.md "Proof handshake"): the
/// challenge goes out, the first message is handed to the shell to judge, what follows waits
/// unread until the verdict; the shell then says `proven` (or refuses the connection).
extension ConnectionHub {
    /// `{"type":"challenge","protocol":1,"nonce":…}` goes out; the next message is the answer.
    /// Without a nonce, `{"type":"challenge","protocol":1,"auth":false}`: nothing to prove.
    func challenge(_ connection: Connection, nonce: String?, now: Double) {
        guard connection.state.isOpen, connection.proof == .none else { return }
        guard let nonce else {
            return transition(connection, .queued(Array(#"{"type":"challenge","protocol":1,"auth":false}"#.utf8)[...], now: now))
        }
        connection.proof = .awaiting
        transition(connection, .queued(Array(#"{"type":"challenge","protocol":1,"nonce":"\#(nonce)"}"#.utf8)[...], now: now))
    }

    /// A complete message while the proof is pending: the first is the answer, for the shell;
    /// the rest (the page's `hello`, sent without waiting) is kept for after the verdict.
    func receiveDuringProof(_ connection: Connection) {
        switch connection.proof {
        case .awaiting:
            connection.proof = .judging
            actions.append(.judgeProof(connection.id, connection.message))
        case .judging:
            keepUnread(connection)
        case .none:
            break
        }
    }

    /// The proof was accepted: `{"type":"authenticated","proof":…}` goes out, and the
    /// connection's control messages must come sealed with `seal` from now on.
    func proven(_ connection: Connection, serverProof: String, seal: SealedChannel, now: Double) {
        guard connection.state.isOpen, connection.proof == .judging else { return }
        connection.proof = .none
        connection.seal = seal
        connection.session.sealedControl = true
        transition(
            connection, .queued(Array(#"{"type":"authenticated","proof":"\#(serverProof)"}"#.utf8)[...], now: now))
    }

    /// Reads what arrived while the proof was judged, unless the connection now waits for the
    /// computer's user (it keeps it until admitted then).
    func release(_ connection: Connection, now: Double) {
        guard connection.state.isOpen, connection.proof == .none else { return }
        readHeld(connection, now: now)
    }
}
