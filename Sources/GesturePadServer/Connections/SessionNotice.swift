import GestureProtocol

/// The observer notice `{"type":"session","session":S,"state":"open"|"closed"}` of
/// PROTOCOL.md "Server → page", encoded once per touchpad arrival or departure (by the one
/// encoder, `MessageEncoder.appendSessionNotice`).
enum SessionNotice {
    /// The encoded notice for session `session` (of run `run`, its device named `name`).
    static func encode(session: String, open: Bool, run: String? = nil, name: String? = nil) -> [UInt8] {
        var bytes: [UInt8] = []
        MessageEncoder.appendSessionNotice(session: session, open: open, run: run, name: name, to: &bytes)
        return bytes
    }
}
