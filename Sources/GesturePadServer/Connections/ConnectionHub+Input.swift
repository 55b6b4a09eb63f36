import GestureProtocol

/// The work of the transitions on input, time and departure (`transition(_:_:)` calls these;
/// none of them changes a connection's state: what they decide goes back as an event).
extension ConnectionHub {
    /// A consumer that stopped reading is closed with 1008, without its queue.
    static let tooSlow = ConnectionState.CloseRequest(
        code: .policyViolation, reason: "too slow: send queue over limit", flush: false)

    /// Whether a chunk of a data frame may join `connection.message`: a binary frame or a
    /// message over the size limit is refused before its bytes are kept (the Close is sent at
    /// the next writable callback).
    func accepts(_ bytes: ArraySlice<UInt8>, isBinary: Bool, on connection: Connection) -> Bool {
        if isBinary {
            refuse(connection, .unsupportedData, "binary frames are not accepted")
            return false
        }
        // Per fragment, before copying: a message sent as many small fragments cannot grow past
        // the limit. (The session checks whole messages again for `replay`, which has no hub.)
        let limit = configuration.limits.maxMessageBytes
        if connection.message.count + bytes.count > limit {
            refuse(connection, .messageTooBig, "message over \(limit) bytes")
            return false
        }
        return true
    }

    /// A complete message for the session of an open connection: the session checks its UTF-8
    /// (a sequence cut at its end included, which lws misses) and asks to close with 1007 if
    /// need be; the recorder gets it (`--record`); what the session produced is dispatched.
    /// A sealed message (docs/protocol.md "Sealed messages") is opened first; one that does not
    /// open closes the connection (4413), and the session reads the plaintext.
    func process(_ message: [UInt8], of connection: Connection, now: Double) {
        output.removeAll()
        // The shape first: a pointer batch (`[…`) fails it at its first byte, with no copy of the seal.
        if connection.seal != nil, SealedChannel.isSealed(message), var seal = connection.seal {
            guard let plain = seal.open(frame: message) else {
                return refuse(
                    connection, .sealBroken, "a sealed message did not open (forged, altered, replayed or out of order)")
            }
            connection.seal = seal
            connection.session.receive(text: plain.span, arrival: now, sealed: true, into: &output)
            if recording { record(plain, of: connection) }
        } else {
            connection.session.receive(text: message.span, arrival: now, into: &output)
            if recording { record(message, of: connection) }
        }
        dispatch(connection, now: now)
    }

    /// The session's timers that are due at `now` fire.
    func fire(_ connection: Connection, now: Double) {
        output.removeAll()
        connection.session.fire(now: max(now, connection.session.nextWakeup ?? now), into: &output)
        dispatch(connection, now: now)
    }

    /// Closes at once, without the queued frames, for what the transport or pairing refuses.
    /// The close is sent from the writable callback like every other one: lws keeps parsing
    /// what it has already read (and the hub ignores it), so its frame parser never loses step.
    func refuse(_ connection: Connection, _ code: CloseCode, _ reason: String) {
        logger.notice(
            "closing connection: \(reason)",
            metadata: ["ws.connection.id": "\(connection.id)", "ws.close.code": "\(code.rawValue)"])
        transition(connection, .closeDecided(.init(code: code, reason: reason, flush: false)))
    }

    /// Touchpad `connection` is gone at `now` (it left the hub's tables): its open contact is
    /// cancelled (its events still reach the sinks, the backend and observers), observers
    /// hear its session closed, and the sinks and the recorder that it ended.
    func departed(_ connection: Connection, now: Double) {
        output.removeAll()
        connection.session.close(now: now, into: &output)
        for (kind, range) in output.frames.frames where kind == .gesture {
            broadcastToObservers(output.frames.bytes[range], now: now)
        }
        handOver(of: connection)
        broadcastToObservers(notice(of: connection, open: false)[...], now: now)
        actions.append(.announceSession(connection.sessionName, open: false))
        if recording { actions.append(.endRecording(session: connection.sessionName)) }
    }
}
