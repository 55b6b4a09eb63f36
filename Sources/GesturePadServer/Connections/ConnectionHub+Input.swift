import GestureProtocol

/// The transitions of `ConnectionHub.handle(_:on:)`, one per kind of input.
extension ConnectionHub {
    /// A chunk of a data frame on an open connection. A refusal (binary frame, message over
    /// the size limit) starts the close before the bytes are kept; the Close is sent at the
    /// next writable callback.
    func receive(
        _ bytes: ArraySlice<UInt8>, isFinal: Bool, isBinary: Bool, on connection: Connection, now: Double
    ) {
        if isBinary {
            return refuse(connection, .unsupportedData, "binary frames are not accepted")
        }
        // Per fragment, before copying: a message sent as many small fragments cannot grow past
        // the limit. (The session checks whole messages again for `replay`, which has no hub.)
        let limit = configuration.limits.maxMessageBytes
        if connection.message.count + bytes.count > limit {
            return refuse(connection, .messageTooBig, "message over \(limit) bytes")
        }
        connection.message.append(contentsOf: bytes)
        guard isFinal else { return }
        if configuration.conformanceEcho { return echo(connection, now: now) }
        if connection.awaitingApproval { return holdMessage(of: connection) }
        // The protocol session checks the whole message's UTF-8 (a sequence cut at its end
        // included, which lws misses) and asks to close with 1007.
        output.removeAll()
        connection.session.receive(text: connection.message.span, arrival: now, into: &output)
        if let recorder { record(connection.message, of: connection, to: recorder) }
        connection.message.removeAll(keepingCapacity: true)
        dispatch(connection, now: now)
    }

    /// Writable, with messages queued: hands the oldest (up to `maxWriteBytes`) to the
    /// transport, asks for another writable callback while more are queued or the Close is
    /// still to come, and resumes reading once the queue is below the low watermark.
    func write(_ connection: Connection, now: Double) {
        guard connection.outbound.pop(into: &batch, maxBytes: Self.maxWriteBytes) > 0 else { return }
        if let pausedAt = connection.state.readingPausedAt,
            connection.outbound.queuedBytes <= configuration.outboundLowWatermark
        {
            // What the peer sent meanwhile is no burst (the server chose not to read it).
            connection.session.readingPaused(from: pausedAt, to: now)
            connection.state = connection.state.withReadingPaused(at: nil)
            actions.append(.resumeReading(connection.id))
        }
        actions.append(.write(connection.id, batch))
        if !connection.outbound.isEmpty || !connection.state.isOpen {
            actions.append(.requestWritable(connection.id))
        }
    }

    /// Writable, closing, with nothing (more) to flush: the Close goes out, and nothing after it.
    func sendClose(_ close: ConnectionState.CloseRequest, on connection: Connection) {
        let pausedAt = connection.state.readingPausedAt
        connection.state = .closeSent
        connection.outbound.removeAll()
        // lws must read the peer's Close to finish the handshake.
        if pausedAt != nil { actions.append(.resumeReading(connection.id)) }
        actions.append(.close(connection.id, code: close.code, reason: close.reason))
    }

    /// The session's timers that are due at `now` fire.
    func fire(_ connection: Connection, now: Double) {
        output.removeAll()
        connection.session.fire(now: max(now, connection.session.nextWakeup ?? now), into: &output)
        dispatch(connection, now: now)
    }

    /// A Close is on its way that the hub did not send now (lws's own for a protocol error, or
    /// its answer to the peer's). RFC 6455 §5.5.1 allows no data frame after a Close, so the
    /// queued frames are dropped, input is no longer processed and the timer is cancelled;
    /// `closed` follows when lws lets go of the connection.
    func closeUnderway(_ connection: Connection) {
        if case .open(let flow) = connection.state, flow.wakeup != nil {
            actions.append(.cancelWakeup(connection.id))
        }
        connection.state = .closeSent
        connection.outbound.removeAll()
        connection.message.removeAll()
    }

    /// The connection is gone at `now`: a touchpad's open contact is cancelled (its events
    /// still reach the sinks and observers), and observers hear its session closed.
    func closed(_ connection: Connection, now: Double) {
        connections.removeValue(forKey: connection.id)
        observers.removeAll { $0 == connection.id }
        guard connection.role == .touchpad else { return }
        touchpads.removeAll { $0 == connection.id }
        output.removeAll()
        connection.session.close(now: now, into: &output)
        for (kind, range) in output.frames.frames where kind == .gesture {
            broadcastToObservers(output.frames.bytes[range], now: now)
        }
        deliverEvents(of: connection)
        performActions()
        broadcastToObservers(SessionNotice.encode(session: connection.sessionName, open: false)[...], now: now)
        for sink in sinks { sink.session(connection.sessionName, open: false) }
        recorder?.ended(connection.sessionName)
    }

    /// Starts closing an open connection with `code` (nothing happens in any other state): the
    /// message being reassembled is dropped, the queued frames too unless `flush`, the timer is
    /// cancelled, and the Close waits for the next writable callback.
    func startClosing(_ connection: Connection, _ code: CloseCode, _ reason: String, flush: Bool) {
        guard case .open(let flow) = connection.state else { return }
        connection.state = .closing(
            .init(code: code, reason: reason, flush: flush), readingPausedAt: flow.readingPausedAt)
        connection.message.removeAll()
        if !flush { connection.outbound.removeAll() }
        if flow.wakeup != nil { actions.append(.cancelWakeup(connection.id)) }
        actions.append(.limitClosingTime(connection.id))
        actions.append(.requestWritable(connection.id))
    }

    /// Closes at once, without the queued frames, for what the transport itself refuses. The
    /// close is sent from the writable callback like every other one: lws keeps parsing what it
    /// has already read (and the hub ignores it), so its frame parser never loses step.
    func refuse(_ connection: Connection, _ code: CloseCode, _ reason: String) {
        logger.notice(
            "closing connection: \(reason)",
            metadata: ["ws.connection.id": "\(connection.id)", "ws.close.code": "\(code.rawValue)"])
        startClosing(connection, code, reason, flush: false)
    }

    /// Arms the timer of an open connection at its session's next wakeup, when that changed.
    func rearmWakeup(of connection: Connection) {
        guard case .open(var flow) = connection.state else { return }
        let wakeup = connection.session.nextWakeup
        guard wakeup != flow.wakeup else { return }
        flow.wakeup = wakeup
        connection.state = .open(flow)
        if let wakeup {
            actions.append(.scheduleWakeup(connection.id, deadline: wakeup))
        } else {
            actions.append(.cancelWakeup(connection.id))
        }
    }
}
