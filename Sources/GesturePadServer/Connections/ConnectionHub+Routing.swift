import GestureProtocol

/// Where what a session produced goes: its own queue and the observers' queues (as `queued`
/// events), and, as actions for the shell, the sinks, the control backend and the recorder.
extension ConnectionHub {
    /// Routes `output` (what the session of `connection` just produced), then closes as the
    /// session asked and re-arms its timer.
    func dispatch(_ connection: Connection, now: Double) {
        let watching = output.mediaWatchStarted
        if output.helloRole == .touchpad { transition(connection, .joined(.touchpad, now: now)) }
        for (kind, range) in output.frames.frames {
            let frame = output.frames.bytes[range]
            switch kind {
            case .reply:
                // The replies (welcome, held, settings, control, pong, error): sealed on a
                // connection that proved its credential.
                queueSealed(frame, to: connection, now: now)
            case .gesture:
                if connection.role != .observer { transition(connection, .queued(frame, now: now)) }
                broadcastToObservers(frame, except: connection.id, now: now)
            case .command:
                // What was typed or pressed: sealed for each connection that proved its credential.
                if connection.role != .observer { queueSealed(frame, to: connection, now: now) }
                for observerID in observers where observerID != connection.id {
                    if let observer = connections[observerID] { queueSealed(frame, to: observer, now: now) }
                }
            }
        }
        handOver(of: connection)
        if output.helloRole == .observer { transition(connection, .joined(.observer, now: now)) }
        if output.unpairRequested { actions.append(.unpairDevice(connection.id)) }
        for command in output.mediaCommands { actions.append(.media(command)) }
        if let close = output.close {
            transition(connection, .closeDecided(.init(code: close.code, reason: close.reason, flush: true)))
        }
        transition(connection, .timersChanged)
        // A page that just asked hears what the computer's players do now (a call of its own:
        // `output` is spent).
        if watching, media != nil { transition(connection, .mediaChanged(now: now)) }
    }

    /// The session's events and notes for the sinks, its host actions for the backend: views
    /// of `output`, carried out before the next input.
    func handOver(of connection: Connection) {
        if !output.events.isEmpty {
            actions.append(.deliver(session: connection.sessionName, events: output.events[...]))
        }
        if !output.notes.isEmpty {
            actions.append(.note(session: connection.sessionName, notes: output.notes[...]))
        }
        if !output.actions.isEmpty, backendName != nil {
            actions.append(.perform(output.actions[...]))
        }
    }

    /// A frame the session just handled, for the recorder: the one that made the connection a
    /// touchpad begins its recording, later ones of a touchpad follow. Frames before the
    /// `hello` (refused) and observers' frames are not recorded.
    func record(_ frame: [UInt8], of connection: Connection) {
        if output.helloRole == .touchpad {
            actions.append(.beginRecording(session: connection.sessionName, frame: frame))
        } else if connection.role == .touchpad {
            actions.append(.record(session: connection.sessionName, frame: frame))
        }
    }

    /// Touchpad `connection` joined: the log, the sinks and the observers hear of its session.
    func announceTouchpad(_ connection: Connection, now: Double) {
        logger.info("touchpad session opened", metadata: ["ws.connection.id": "\(connection.id)"])
        actions.append(.announceSession(connection.sessionName, open: true))
        broadcastToObservers(notice(of: connection, open: true)[...], now: now)
        // Control ended (the desktop closed the portal session): a touchpad arriving asks again.
        if !control.isActive && backendName != nil { actions.append(.requestControl) }
    }

    /// Observer `connection` joined: it hears of every touchpad session already open.
    func showTouchpads(to connection: Connection, now: Double) {
        logger.info("observer joined", metadata: ["ws.connection.id": "\(connection.id)"])
        for id in touchpads {
            if let touchpad = connections[id] {
                transition(connection, .queued(notice(of: touchpad, open: true)[...], now: now))
            }
        }
    }

    /// The observer notice of touchpad `connection` opening or closing: with this run's id and
    /// its device's name (docs/protocol.md "Server identity").
    func notice(of connection: Connection, open: Bool) -> [UInt8] {
        SessionNotice.encode(
            session: connection.sessionName, open: open, run: identity?.run, name: connection.session.device?.name)
    }

    /// Queues `frame` sealed for `connection` when it proved its credential (docs/protocol.md
    /// "Sealed messages"), as it is otherwise.
    func queueSealed(_ frame: ArraySlice<UInt8>, to connection: Connection, now: Double) {
        guard var seal = connection.seal else { return transition(connection, .queued(frame, now: now)) }
        let sealed = seal.seal(Array(frame))
        connection.seal = seal
        transition(connection, .queued(sealed[...], now: now))
    }

    func broadcastToObservers(_ frame: ArraySlice<UInt8>, except id: Int? = nil, now: Double) {
        for observerID in observers where observerID != id {
            signal(.queued(frame, now: now), to: observerID)
        }
    }
}
