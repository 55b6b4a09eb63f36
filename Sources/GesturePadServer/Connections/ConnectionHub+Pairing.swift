import GestureProtocol

/// The connection's side of pairing (`PairingDesk` decides; its actions arrive as `HubInput`s):
/// the work of the `admit` and `rename` transitions.
extension ConnectionHub {
    /// `connection` reads the messages it kept unread — admitted, those it sent while it
    /// waited; released after its proof, those that came while it was judged — while it stays
    /// open; then its timer is armed.
    func readKept(_ held: [[UInt8]], of connection: Connection, now: Double) {
        for message in held where connection.state.isOpen {
            process(message, of: connection, now: now)
        }
        transition(connection, .timersChanged)
    }

    /// The device of open `connection` is now called `device.name` (its session has the new
    /// name): once it said `hello` it gets the `device` notice, and when it is a touchpad the
    /// observers get its session notice again with the new name.
    func tellRenamed(_ connection: Connection, _ device: DeviceGreeting, now: Double) {
        guard let role = connection.role else { return }
        var bytes: [UInt8] = []
        MessageEncoder.appendDeviceNotice(device, to: &bytes)
        queueSealed(bytes[...], to: connection, now: now)
        if role == .touchpad, touchpads.contains(connection.id) {
            broadcastToObservers(notice(of: connection, open: true)[...], now: now)
        }
    }
}
