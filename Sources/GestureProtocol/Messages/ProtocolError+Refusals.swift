import GestureEngine

/// The refusals both hosts of a touchpad connection give (`ProtocolSession` on the server,
/// `ReplayHost` for `gesturepad replay`), written once so their texts cannot drift apart.
extension ProtocolError {
    /// A `down` beyond the pointer limit: the pointer is ignored.
    public static func tooManyPointers(_ input: PointerInput, maxPointers: Int) -> ProtocolError {
        let id = if case .down(let sample) = input { " \(sample.id)" } else { "" }
        return ProtocolError(.tooManyPointers, "down: pointer\(id) ignored: at most \(maxPointers) pointers may be down")
    }

    /// A plain frame on a connection that proved its credential: every message comes sealed.
    public static let sealRequiredFrame = ProtocolError(
        .sealRequired, "every message must come sealed on this connection (docs/protocol.md \"Sealed messages\")")

    /// A `text`, `key`, `button` or `settings` message where nothing controls the computer;
    /// `reason` says why (the server's control status, or replay's missing `--actions`).
    public static func controlOff(_ type: MessageType, reason: String) -> ProtocolError {
        ProtocolError(.controlOff, "\(type.name): this server does not control the computer (\(reason))")
    }

    /// A `media` command while no media player is followed (docs/protocol.md "Media").
    public static let mediaUnavailable = ProtocolError(
        .mediaUnavailable, "media: no media player is playing on the computer (or it has no session bus)")
    /// `computer-volume` / `computer-mute` while the computer's sound server cannot be asked.
    public static let computerSoundUnavailable = ProtocolError(
        .mediaUnavailable, "media: the computer's sound server (PipeWire, wpctl) cannot be reached")
}
