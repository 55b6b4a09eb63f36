import GestureProtocol

/// Where what a session produced goes: its own queue, the observers' queues, the sinks, the
/// control backend and the recorder. All of it flows away from the connection; the transport
/// only hears of it through the actions (`requestWritable`, `pauseReading`, …).
extension ConnectionHub {
    /// Routes `output` (what the session of `connection` just produced), then starts the close
    /// the session asked for and re-arms its timer.
    func dispatch(_ connection: Connection, now: Double) {
        if output.helloRole == .touchpad { becameTouchpad(connection, now: now) }
        for (kind, range) in output.frames.frames {
            let frame = output.frames.bytes[range]
            switch kind {
            case .reply:
                enqueue(frame, to: connection, now: now)
            case .gesture:
                if connection.role != .observer { enqueue(frame, to: connection, now: now) }
                broadcastToObservers(frame, except: connection.id, now: now)
            }
        }
        deliverEvents(of: connection)
        performActions()
        if output.helloRole == .observer { becameObserver(connection, now: now) }
        if output.unpairRequested { actions.append(.unpairDevice(connection.id)) }
        if let close = output.close {
            startClosing(connection, close.code, close.reason, flush: true)
        }
        rearmWakeup(of: connection)
    }

    func deliverEvents(of connection: Connection) {
        for event in output.events {
            for sink in sinks { sink.receive(event, session: connection.sessionName) }
        }
        for note in output.notes {
            for sink in sinks { sink.note(note, session: connection.sessionName) }
        }
    }

    /// Hands the session's host actions to the backend (it queues them; never blocks).
    func performActions() {
        guard !output.actions.isEmpty, let backend else { return }
        backend.perform(output.actions[...])
    }

    /// Hands a frame the session just handled to the recorder: the one that made the
    /// connection a touchpad begins its recording, later ones of a touchpad follow. Frames
    /// before the `hello` (refused) and observers' frames are not recorded.
    func record(_ frame: [UInt8], of connection: Connection, to recorder: any InputRecorder) {
        if output.helloRole == .touchpad {
            recorder.began(connection.sessionName, with: frame)
        } else if connection.role == .touchpad {
            recorder.record(connection.sessionName, frame)
        }
    }

    private func becameTouchpad(_ connection: Connection, now: Double) {
        touchpads.append(connection.id)
        logger.info("touchpad session opened", metadata: ["ws.connection.id": "\(connection.id)"])
        for sink in sinks { sink.session(connection.sessionName, open: true) }
        broadcastToObservers(SessionNotice.encode(session: connection.sessionName, open: true)[...], now: now)
        // Control ended (the desktop closed the portal session): a touchpad arriving asks again.
        if !control.isActive { backend?.requestControl() }
    }

    private func becameObserver(_ connection: Connection, now: Double) {
        observers.append(connection.id)
        logger.info("observer joined", metadata: ["ws.connection.id": "\(connection.id)"])
        for id in touchpads {
            if let touchpad = connections[id] {
                enqueue(
                    SessionNotice.encode(session: touchpad.sessionName, open: true)[...], to: connection, now: now)
            }
        }
    }

    func broadcastToObservers(_ frame: ArraySlice<UInt8>, except id: Int? = nil, now: Double) {
        for observerID in observers where observerID != id {
            if let observer = connections[observerID] { enqueue(frame, to: observer, now: now) }
        }
    }

    /// Queues `frame` for `connection` (not after its Close, nor while it closes without
    /// flushing). Past the high watermark reading pauses; past the hard cap — a consumer that
    /// stopped reading — the connection closes with 1008 without its queue.
    func enqueue(_ frame: ArraySlice<UInt8>, to connection: Connection, now: Double) {
        switch connection.state {
        case .closing(let close, _) where !close.flush: return
        case .closeSent: return
        case .open, .closing: break
        }
        let wasEmpty = connection.outbound.isEmpty
        connection.outbound.append(frame)
        let queued = connection.outbound.queuedBytes
        if queued > configuration.outboundHardCap {
            logger.warning(
                "slow consumer: closing", metadata: ["ws.connection.id": "\(connection.id)", "ws.queued": "\(queued)"])
            connection.outbound.removeAll()
            startClosing(connection, .policyViolation, "too slow: send queue over limit", flush: false)
            return
        }
        if connection.state.readingPausedAt == nil && queued > configuration.outboundHighWatermark {
            connection.state = connection.state.withReadingPaused(at: now)
            actions.append(.pauseReading(connection.id))
        }
        if wasEmpty { actions.append(.requestWritable(connection.id)) }
    }
}
