/// The conformance mode (`ServerConfiguration.conformanceEcho`, test only).
extension ConnectionHub {
    /// A complete text message goes back as it came, once its UTF-8 is checked (1007 otherwise,
    /// like the protocol session); no session, no hello deadline, no rate limit of its own.
    func echo(_ connection: Connection, now: Double) {
        guard String(validating: connection.message, as: UTF8.self) != nil else {
            return refuse(connection, .invalidPayload, "text frame is not valid UTF-8")
        }
        transition(connection, .queued(connection.message[...], now: now))
    }
}
