import GestureProtocol

/// The observer notice `{"type":"session","session":S,"state":"open"|"closed"}` of
/// PROTOCOL.md "Server → page", encoded once per touchpad arrival or departure (by the one
/// encoder, `MessageEncoder.appendSessionNotice`).
enum SessionNotice {
    /// The encoded notice for session `session`.
    static func encode(session: String, open: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        MessageEncoder.appendSessionNotice(session: session, open: open, to: &bytes)
        return bytes
    }
}
