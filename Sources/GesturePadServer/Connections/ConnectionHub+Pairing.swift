import GestureProtocol

/// The connection's side of pairing (`PairingDesk` decides; its actions arrive as `HubInput`s):
/// a new device waits, holding what it sends, until it is admitted.
extension ConnectionHub {
    /// A complete message of a waiting connection: kept for its session, up to one message's
    /// worth in all (a page sends only its `hello`); more closes the connection (1008).
    func keepUnread(_ connection: Connection) {
        let limit = configuration.limits.maxMessageBytes
        guard connection.heldBytes + connection.message.count <= limit else {
            return refuse(connection, .policyViolation, "more than \(limit) bytes sent before the pairing was accepted")
        }
        connection.heldBytes += connection.message.count
        connection.held.append(connection.message)
    }

    /// The connection was admitted as `device`'s at `now`: its session starts (the `hello`
    /// deadline from now) and reads what was kept, while it stays open.
    func readKept(_ connection: Connection, as device: DeviceGreeting, now: Double) {
        connection.session.device = device
        connection.session.start(at: now)
        readHeld(connection, now: now)
    }

    /// The messages kept unread are read, in order, while the connection stays open.
    func readHeld(_ connection: Connection, now: Double) {
        let held = connection.held
        connection.held = []
        connection.heldBytes = 0
        for message in held where connection.state.isOpen {
            process(message, of: connection, now: now)
        }
        transition(connection, .timersChanged)
    }

    /// The device of `connection` is now called `device.name`: its session keeps the new name;
    /// an open connection that said `hello` gets the `device` notice, and when it is a touchpad
    /// the observers get its session notice again with the new name.
    func rename(_ connection: Connection, as device: DeviceGreeting, now: Double) {
        connection.session.device = DeviceGreeting(id: device.id, name: device.name)
        guard connection.state.isOpen, let role = connection.role else { return }
        var bytes: [UInt8] = []
        MessageEncoder.appendDeviceNotice(device, to: &bytes)
        transition(connection, .queued(bytes[...], now: now))
        if role == .touchpad, touchpads.contains(connection.id) {
            broadcastToObservers(notice(of: connection, open: true)[...], now: now)
        }
    }
}
