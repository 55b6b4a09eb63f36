import GestureProtocol

/// What happens to one connection: the alphabet of the hub's one transition function,
/// `ConnectionHub.transition(_:_:)`. A `HubInput` about a connection arrives as the event of
/// the same name; a server-wide input reaches each connection it concerns as an event; and
/// what the hub decides about a connection on the way (a frame for it, a close, its session's
/// timers) is an event too, so no state changes anywhere else.
enum ConnectionEvent {
    // MARK: From the transport (`HubInput` of the same name)

    case received(ArraySlice<UInt8>, isFinal: Bool, isBinary: Bool, now: Double)
    case writable(now: Double)
    case wakeup(now: Double, inputPending: Bool)
    case closeFrameSeen
    case peerClosed
    case closed(now: Double)

    // MARK: From pairing (`HubInput` of the same name)

    case greet(DeviceGreeting)
    case hold(DeviceGreeting, PairingWait, now: Double)
    case admit(DeviceGreeting, now: Double)
    case rename(DeviceGreeting, now: Double)

    // MARK: From the proof handshake (`HubInput` of the same name)

    case challenge(nonce: String?, exchange: String?, identity: String?, https: Bool, now: Double)
    case proven(serverProof: String, seal: SealedChannel, now: Double)
    case release(now: Double)
    case move(ticket: String?, now: Double)

    // MARK: From the server as a whole

    /// The server's control changed (`HubInput.controlStatusChanged`): a touchpad's session
    /// hears it.
    case controlChanged(now: Double)
    /// The computer's media players changed (`HubInput.mediaChanged`): the page hears it.
    case mediaChanged(now: Double)
    /// The desktop's keyboard layout changed (`HubInput.desktopLayoutChanged`): the session
    /// checks what it is asked to type against the new table.
    case layoutChanged
    /// A reload changed the gestures hooks claim (`HubInput.reconfigure`): a touchpad's mapper
    /// follows them from its next event on, as the hook rules do.
    case claimsChanged

    // MARK: The hub's own decisions

    /// The session's `hello` made the connection a touchpad or an observer: it joins the
    /// hub's table of its role.
    case joined(ConnectionRole, now: Double)
    /// A frame to send on this connection (its own reply, a gesture, an observer notice).
    case queued(ArraySlice<UInt8>, now: Double)
    /// The hub closes the connection: a refusal by the transport's rules or pairing's, the
    /// session's request, a consumer too slow, shutdown.
    case closeDecided(ConnectionState.CloseRequest)
    /// The session was called: its next wakeup may have moved.
    case timersChanged
}
