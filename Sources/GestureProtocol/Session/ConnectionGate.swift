/// Which message types a connection may send in its current state (shared by
/// `ProtocolSession` and `ReplayHost`): `hello` first and once; an observer only pings (and may
/// unpair its device).
struct ConnectionGate: Sendable {
    /// The state of a connection as the gate sees it.
    enum State: Sendable, Hashable {
        case awaitingHello
        case open(ConnectionRole)
    }

    private(set) var state = State.awaitingHello

    /// The role declared by `hello`, if any.
    var role: ConnectionRole? {
        switch state {
        case .awaitingHello: nil
        case .open(let role): role
        }
    }

    /// The error for a message of `type` in the current state, or nil when it may pass.
    func refusal(for type: MessageType) -> ProtocolError? {
        switch (state, type) {
        case (.awaitingHello, .hello):
            return nil
        case (.awaitingHello, _):
            return ProtocolError(.helloRequired, "\(type.name): send hello first")
        case (.open, .hello):
            return ProtocolError(.duplicateHello, "hello: already received; a connection sends hello once")
        case (.open(.observer), .ping), (.open(.observer), .unpair), (.open(.touchpad), _):
            return nil
        case (.open(.observer), _):
            return ProtocolError(.observerReadOnly, "\(type.name): an observer connection may only send ping (or unpair)")
        }
    }

    /// A valid `hello` passed: the connection is open with `role`.
    mutating func open(as role: ConnectionRole) {
        state = .open(role)
    }
}
