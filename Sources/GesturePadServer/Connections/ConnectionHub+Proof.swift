import GestureProtocol

/// The work of the proof handshake's transitions (docs/protocol.md "Proof handshake"): the
/// challenge goes out (`challenge`), the first message is handed to the shell to judge, what
/// follows waits unread until the verdict (`Flow.held`), the shell then says `proven` (or
/// refuses the connection) and `release`s what waited. The stage is the open state's
/// (`Flow.proof`); only `transition(_:_:)` changes it.
extension ConnectionHub {
    /// Adds a complete `message` to those a connection keeps unread (while its proof is judged,
    /// or while it waits for the computer's user): up to one message's worth in all (a page
    /// sends only its `hello` before it is answered). More refuses the connection (1008) and
    /// returns false.
    func keepUnread(_ message: [UInt8], in held: inout [[UInt8]], bytes: inout Int, of connection: Connection) -> Bool {
        let limit = configuration.limits.maxMessageBytes
        guard bytes + message.count <= limit else {
            refuse(connection, .policyViolation, "more than \(limit) bytes sent before the pairing was accepted")
            return false
        }
        bytes += message.count
        held.append(message)
        return true
    }
}
