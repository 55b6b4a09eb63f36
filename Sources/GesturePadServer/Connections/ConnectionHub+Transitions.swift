import GestureProtocol

/// The one transition function of a connection.
extension ConnectionHub {
    /// `(state, event) → state, actions`: every change of `connection.state` is made here, in
    /// the case that says why. The helpers a case calls do the work that changes no state
    /// (the session, routing, the shell's actions); what they decide about a connection comes
    /// back here as an event (`queued`, `closeDecided`, `timersChanged`).
    func transition(_ connection: Connection, _ event: ConnectionEvent) {
        let id = connection.id
        switch (connection.state, event) {
        // MARK: Input
        case (.open(var flow), .received(let bytes, let isFinal, let isBinary, let now)):
            guard accepts(bytes, isBinary: isBinary, on: connection) else { break }
            connection.message.append(contentsOf: bytes)
            guard isFinal else { break }
            switch flow.proof {
            case .awaiting:
                // The first message is the answer to the challenge, for the shell to judge.
                flow.proof = .judging
                connection.state = .open(flow)
                actions.append(.judgeProof(id, connection.message))
            case .judging:
                // What follows (the page's `hello`, sent without waiting) waits for the verdict.
                if keepUnread(connection.message, in: &flow.held, bytes: &flow.heldBytes, of: connection) {
                    connection.state = .open(flow)
                }
            case .none where configuration.conformanceEcho:
                echo(connection, now: now)
            case .none:
                process(connection.message, of: connection, now: now)
            }
            connection.clearMessage()
        case (.waiting(var waiting), .received(let bytes, let isFinal, let isBinary, _)):
            // Kept for its session until it is admitted.
            guard accepts(bytes, isBinary: isBinary, on: connection) else { break }
            connection.message.append(contentsOf: bytes)
            guard isFinal else { break }
            if keepUnread(connection.message, in: &waiting.held, bytes: &waiting.heldBytes, of: connection) {
                connection.state = .waiting(waiting)
            }
            connection.clearMessage()
        case (.closing, .received), (.closeSent, .received):
            break  // input after a close is not processed

        // MARK: Output
        case (.closing(let close, _), .queued) where !close.flush:
            break  // closing without its queue
        case (.open, .queued(let frame, let now)), (.waiting, .queued(let frame, let now)),
            (.closing, .queued(let frame, let now)):
            // Queued; past the high watermark reading pauses (a connection's own input is what
            // fills its queue), past the hard cap the connection closes.
            let wasEmpty = connection.outbound.isEmpty
            connection.outbound.append(frame)
            let queued = connection.outbound.queuedBytes
            if queued > configuration.outboundHardCap {
                // A consumer that stopped reading: closed without its queue.
                logger.warning("slow consumer: closing", metadata: ["ws.connection.id": "\(id)", "ws.queued": "\(queued)"])
                connection.outbound.removeAll()
                transition(connection, .closeDecided(Self.tooSlow))
                break
            }
            if connection.state.readingPausedAt == nil && queued > configuration.outboundHighWatermark {
                connection.state = connection.state.withReadingPaused(at: now)
                actions.append(.pauseReading(id))
            }
            if wasEmpty { actions.append(.requestWritable(id)) }
        case (.closeSent, .queued):
            break  // nothing is queued after a Close
        case (.closing(let close, let pausedAt), .writable) where !close.flush || connection.outbound.isEmpty:
            // Nothing (more) to flush: the Close goes out, and nothing after it.
            connection.state = .closeSent
            connection.outbound.removeAll()
            // lws must read the peer's Close to finish the handshake.
            if pausedAt != nil { actions.append(.resumeReading(id)) }
            actions.append(.close(id, code: close.code, reason: close.reason))
        case (.open, .writable(let now)), (.waiting, .writable(let now)), (.closing, .writable(let now)):
            // The oldest messages (up to `maxWriteBytes`) go to the transport; reading resumes
            // once the queue is below the low watermark.
            guard connection.outbound.pop(into: &batch, maxBytes: Self.maxWriteBytes) > 0 else { break }
            if let pausedAt = connection.state.readingPausedAt,
                connection.outbound.queuedBytes <= configuration.outboundLowWatermark
            {
                // What the peer sent meanwhile is no burst (the server chose not to read it).
                connection.session.readingPaused(from: pausedAt, to: now)
                connection.state = connection.state.withReadingPaused(at: nil)
                actions.append(.resumeReading(id))
            }
            actions.append(.write(id, batch))
            // More to write, or the Close still to come.
            if !connection.outbound.isEmpty || connection.state.isClosing { actions.append(.requestWritable(id)) }
        case (.closeSent, .writable):
            break  // nothing is written after a Close

        // MARK: Timers
        case (.open(let flow), .timersChanged):
            let wakeup = connection.session.nextWakeup
            guard wakeup != flow.wakeup else { break }
            var rearmed = flow
            rearmed.wakeup = wakeup
            connection.state = .open(rearmed)
            actions.append(wakeup.map { .scheduleWakeup(id, deadline: $0) } ?? .cancelWakeup(id))
        case (.waiting, .timersChanged), (.closing, .timersChanged), (.closeSent, .timersChanged):
            break  // no timer runs
        case (.open(let flow), .wakeup(let now, let inputPending)):
            if let due = flow.wakeup, inputPending, now - due < Self.timerInputGraceMilliseconds {
                // The loop was held up: input from before the deadline may wait in the socket
                // while lws runs its due timers first. It goes first (the engine orders timers
                // against messages by the page's `t`); the armed deadline stays `due`, so the
                // grace is counted from it.
                actions.append(.scheduleWakeup(id, deadline: now + Self.timerInputRetryMilliseconds))
            } else {
                var fired = flow
                fired.wakeup = nil
                connection.state = .open(fired)
                fire(connection, now: now)
            }
        case (.waiting, .wakeup), (.closing, .wakeup), (.closeSent, .wakeup):
            break  // cancelled when it began to wait or close; a callback already on its way is ignored

        // MARK: Closing
        case (.open, .closeDecided(let close)), (.waiting, .closeDecided(let close)):
            // The message being reassembled is dropped, the queued frames too unless
            // `close.flush`, the timer is cancelled, and the Close waits for the next writable
            // callback (dropped if it never comes).
            let armed = connection.state.wakeup != nil
            connection.state = .closing(close, readingPausedAt: connection.state.readingPausedAt)
            connection.message.removeAll()
            if !close.flush { connection.outbound.removeAll() }
            if armed { actions.append(.cancelWakeup(id)) }
            actions.append(.limitClosingTime(id))
            actions.append(.requestWritable(id))
        case (.closing, .closeDecided), (.closeSent, .closeDecided):
            break  // the first close stands
        case (.open, .closeFrameSeen), (.waiting, .closeFrameSeen), (.closing, .closeFrameSeen),
            (.open, .peerClosed), (.waiting, .peerClosed), (.closing, .peerClosed):
            // A Close is on its way that the hub did not send now: lws's own for a protocol
            // error, or its answer to the peer's. RFC 6455 §5.5.1 allows no data frame after
            // it: the queue is dropped, input is no longer processed, the timer is cancelled.
            if connection.state.wakeup != nil { actions.append(.cancelWakeup(id)) }
            connection.state = .closeSent
            connection.outbound.removeAll()
            connection.message.removeAll()
            // Not the hub's Close: lws failed the connection (RFC 6455 §7.1.7).
            if case .closeFrameSeen = event { actions.append(.hangUp(id)) }
        case (.closeSent, .closeFrameSeen), (.closeSent, .peerClosed):
            break
        case (_, .closed(let now)):
            // lws let go: the connection leaves every state and every table.
            connections.removeValue(forKey: id)
            observers.removeAll { $0 == id }
            touchpads.removeAll { $0 == id }
            if connection.role == .touchpad { departed(connection, now: now) }

        // MARK: Pairing and control
        case (.open, .greet(let device)), (.waiting, .greet(let device)):
            connection.session.device = device
        case (.closing, .greet), (.closeSent, .greet):
            break
        case (.open(let flow), .hold(let device, let wait, let now)):
            // A fresh session, not started: no `hello` deadline while the computer's user decides.
            connection.session = makeSession(id)
            connection.session.sealedInput = connection.seal != nil
            // What arrived while its proof was judged stays unread until it is admitted.
            connection.state = .waiting(
                .init(readingPausedAt: flow.readingPausedAt, held: flow.held, heldBytes: flow.heldBytes))
            if flow.wakeup != nil { actions.append(.cancelWakeup(id)) }
            var notice: [UInt8] = []
            MessageEncoder.appendPairingWaiting(device: device, for: wait, to: &notice)
            queueSealed(notice[...], to: connection, now: now)
        case (.waiting, .hold), (.closing, .hold), (.closeSent, .hold):
            break
        case (.waiting(let waiting), .admit(let device, let now)):
            // Its session starts (the `hello` deadline from now) and reads what was kept.
            connection.state = .open(.init(readingPausedAt: waiting.readingPausedAt))
            connection.session.device = device
            connection.session.start(at: now)
            readKept(waiting.held, of: connection, now: now)
        case (.open, .admit), (.closing, .admit), (.closeSent, .admit):
            break
        case (.open(var flow), .challenge(let nonce, let exchange, let identity, let https, let now)):
            guard flow.proof == .none else { break }
            if nonce != nil {
                flow.proof = .awaiting
                connection.state = .open(flow)
            }
            var challenge: [UInt8] = []
            MessageEncoder.appendChallenge(
                nonce: nonce, exchange: exchange, identity: identity, https: https, to: &challenge)
            transition(connection, .queued(challenge[...], now: now))
        case (.open(var flow), .proven(let serverProof, let seal, let now)):
            // Its control messages come sealed with `seal` from now on.
            guard flow.proof == .judging else { break }
            flow.proof = .none
            connection.state = .open(flow)
            connection.seal = seal
            connection.session.sealedInput = true
            var authenticated: [UInt8] = []
            MessageEncoder.appendAuthenticated(serverProof: serverProof, to: &authenticated)
            transition(connection, .queued(authenticated[...], now: now))
        case (.open(var flow), .release(let now)):
            // What arrived while the proof was judged is read now.
            guard flow.proof == .none else { break }
            let held = flow.held
            flow.held = []
            flow.heldBytes = 0
            connection.state = .open(flow)
            readKept(held, of: connection, now: now)
        case (.open(let flow), .move(let ticket, let now)):
            // Just proven (its seal set): told where to go, sealed, then closed after it.
            guard flow.proof == .none, connection.seal != nil else { break }
            var message: [UInt8] = []
            MessageEncoder.appendMove(ticket: ticket, to: &message)
            queueSealed(message[...], to: connection, now: now)
            transition(
                connection,
                .closeDecided(.init(code: .movedToTLS, reason: "this computer speaks HTTPS now: use https://", flush: true)))
        case (.waiting, .challenge), (.closing, .challenge), (.closeSent, .challenge), (.waiting, .proven),
            (.closing, .proven), (.closeSent, .proven), (.closing, .release), (.closeSent, .release), (.waiting, .move),
            (.closing, .move), (.closeSent, .move):
            break
        case (.waiting, .release):
            break  // held for the computer's user: what it sent is read once it is admitted
        case (.open, .rename(let device, let now)):
            connection.session.device = DeviceGreeting(id: device.id, name: device.name, kind: device.kind)
            tellRenamed(connection, device, now: now)
        case (.waiting, .rename(let device, _)), (.closing, .rename(let device, _)), (.closeSent, .rename(let device, _)):
            connection.session.device = DeviceGreeting(id: device.id, name: device.name, kind: device.kind)
        case (.open, .joined(let role, let now)):
            switch role {
            case .touchpad:
                touchpads.append(id)
                announceTouchpad(connection, now: now)
            case .observer:
                observers.append(id)
                showTouchpads(to: connection, now: now)
            }
        case (.waiting, .joined), (.closing, .joined), (.closeSent, .joined):
            break  // a session speaks only while its connection is open
        case (.open, .controlChanged(let now)):
            output.removeAll()
            connection.session.updateControl(control, into: &output)
            dispatch(connection, now: now)
        case (.waiting, .controlChanged), (.closing, .controlChanged), (.closeSent, .controlChanged):
            break
        case (.open, .mediaChanged(let now)):
            guard let media else { break }
            output.removeAll()
            connection.session.updateMedia(media, now: now, into: &output)
            // A page that did not ask hears nothing: no dispatch for it.
            if !output.frames.frames.isEmpty { dispatch(connection, now: now) }
        case (.waiting, .mediaChanged), (.closing, .mediaChanged), (.closeSent, .mediaChanged):
            break  // a waiting page hears the players once it is let in and says hello
        case (.open, .layoutChanged), (.waiting, .layoutChanged):
            connection.session.updateCapabilities(control.capabilities)
        case (.closing, .layoutChanged), (.closeSent, .layoutChanged):
            break  // its session is no longer called
        case (.open, .claimsChanged), (.waiting, .claimsChanged):
            connection.session.updateClaims(control.settings.claims)
        case (.closing, .claimsChanged), (.closeSent, .claimsChanged):
            break  // its session is no longer called
        }
    }
}
