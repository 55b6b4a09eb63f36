import GestureProtocol

/// What pairing decides about connections (`PairingDesk`, through the server): whose device a
/// connection is, a new device held until the computer's user answers, and connections closed
/// because their device is not (or no longer) paired.
extension ConnectionHub {
    /// Connection `id` is this device's: its `welcome` will say so.
    func greet(_ id: Int, as device: DeviceGreeting) {
        connections[id]?.session.device = device
    }

    /// Connection `id` (just opened) waits for the computer's user: its page is told, and what
    /// it sends is held unread (no `hello` deadline runs meanwhile).
    func hold(_ id: Int, as device: DeviceGreeting, now: Double) -> [HubAction] {
        actions.removeAll(keepingCapacity: true)
        guard let connection = connections[id], connection.state.isOpen else { return actions }
        connection.awaitingApproval = true
        connection.session = makeSession(id)
        rearmWakeup(of: connection)
        var notice: [UInt8] = []
        MessageEncoder.appendPairingWaiting(device: device, to: &notice)
        enqueue(notice[...], to: connection, now: now)
        return actions
    }

    /// Waiting connection `id` was accepted: its session starts (the `hello` deadline from now)
    /// and reads what was held, and its `welcome` carries `device` (with the key).
    func admit(_ id: Int, as device: DeviceGreeting, now: Double) -> [HubAction] {
        actions.removeAll(keepingCapacity: true)
        guard let connection = connections[id], connection.awaitingApproval, connection.state.isOpen else {
            return actions
        }
        connection.awaitingApproval = false
        connection.session.device = device
        connection.session.start(at: now)
        let held = connection.held
        connection.held = []
        connection.heldBytes = 0
        for message in held where connection.state.isOpen {
            output.removeAll()
            connection.session.receive(text: message.span, arrival: now, into: &output)
            if let recorder { record(message, of: connection, to: recorder) }
            dispatch(connection, now: now)
        }
        rearmWakeup(of: connection)
        return actions
    }

    /// Closes connections `ids` at once with `code` (their device is not paired).
    func close(_ ids: [Int], code: CloseCode, reason: String) -> [HubAction] {
        actions.removeAll(keepingCapacity: true)
        for id in ids {
            if let connection = connections[id] { refuse(connection, code, reason) }
        }
        return actions
    }

    /// A complete message of a waiting connection: kept for its session, up to one message's
    /// worth in all (a page sends only its `hello`); more closes the connection (1008).
    func holdMessage(of connection: Connection) {
        defer { connection.message.removeAll(keepingCapacity: true) }
        let limit = configuration.limits.maxMessageBytes
        guard connection.heldBytes + connection.message.count <= limit else {
            return refuse(connection, .policyViolation, "more than \(limit) bytes sent before the pairing was accepted")
        }
        connection.heldBytes += connection.message.count
        connection.held.append(connection.message)
    }
}
