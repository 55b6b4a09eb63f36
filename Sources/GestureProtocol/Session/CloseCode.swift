/// WebSocket close codes the protocol uses.
public enum CloseCode: UInt16, Sendable {
    case goingAway = 1001
    case protocolError = 1002
    case unsupportedData = 1003
    case invalidPayload = 1007
    case policyViolation = 1008
    case messageTooBig = 1009
    /// RFC 6455's "internal error": the server found itself in a state it should never be in
    /// for this connection (an upgrade it did not let in), and lets go of it rather than serve
    /// it unchecked.
    case internalError = 1011
    /// Additive (docs/protocol.md "Pairing"): a new device's pairing was not accepted on the
    /// computer (`--confirm-pairing`: declined, or not accepted in time).
    case pairingDeclined = 4401
    /// Additive (docs/protocol.md "Pairing"): the device of a live connection is no longer
    /// paired: it was forgotten on the computer, or it unpaired itself. (An upgrade with a key
    /// that is not paired is refused in the handshake, 403: it never gets this far.)
    case deviceNotPaired = 4403
    /// Additive (docs/protocol.md "Proof handshake"): the proof matches no credential of this
    /// computer — a wrong or outdated pairing secret, a device it does not know, a replay.
    case proofUnknown = 4410
    /// Additive: the proof of a device key forgotten since.
    case proofRevoked = 4411
    /// Additive: the pairing secret, right, while pairing is closed (`gesturepad pair` opens it).
    case pairingClosed = 4412
    /// Additive (docs/protocol.md "Sealed messages"): a sealed message did not open — forged,
    /// altered, replayed or out of order.
    case sealBroken = 4413
    /// Additive: the pairing secret, right, but this computer has as many paired devices as it
    /// keeps (`DeviceList.maxDevices`): forget one first.
    case deviceLimit = 4414
    /// Additive (docs/protocol.md "Pairing"): the connection's device was paired as an observer
    /// (`watch.html`, `auth.kind` "observer"), and its `hello` says it is a touchpad.
    case observerOnly = 4415
    /// Additive (docs/protocol.md "Moving to HTTPS"): the computer now speaks TLS on this port;
    /// a plain connection that proved itself was told, sealed, where to go (`move`) and ends.
    case movedToTLS = 4426
}
