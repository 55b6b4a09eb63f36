import GestureControl

/// The `media` message (docs/protocol.md "Media"): `do`, and `position`, `volume` or `player`
/// for the commands that take one (`computer-volume` takes `volume` too).
extension MessageValidator {
    /// The longest player id taken (a D-Bus name is at most 255 bytes).
    static let maxPlayerIDBytes = 255

    func mediaCommand(in s: Span<UInt8>) throws(ProtocolError) -> MediaCommand {
        let expected =
            "must be one of watch, play-pause, play, pause, stop, next, previous, seek, volume, player, computer-volume, computer-mute"
        guard case .string(let token)? = fields.verb else { throw fail(.verb, fields.verb == nil ? "is missing" : expected) }
        for (name, command) in MediaCommand.plain where JSONStringDecoder.equals(token, name, in: s) {
            return command
        }
        if JSONStringDecoder.equals(token, "seek", in: s) {
            guard case .number(let position, _)? = fields.position, position.isFinite, position >= 0,
                position <= Self.timeLimit
            else { throw fail(.position, "must be a number of ms from the track's start, 0 or more") }
            return .seek(milliseconds: position)
        }
        let playerVolume = JSONStringDecoder.equals(token, "volume", in: s)
        if playerVolume || JSONStringDecoder.equals(token, "computer-volume", in: s) {
            guard case .number(let volume, _)? = fields.volume, volume >= 0, volume <= 1 else {
                throw fail(.volume, "must be a number from 0 to 1")
            }
            return playerVolume ? .volume(volume) : .computerVolume(volume)
        }
        if JSONStringDecoder.equals(token, "player", in: s) {
            guard case .string(let id)? = fields.player else { throw fail(.player, "must be a player's id") }
            let text = JSONStringDecoder.string(id, in: s)
            guard !text.isEmpty, text.utf8.count <= Self.maxPlayerIDBytes else {
                throw fail(.player, "must be a player's id")
            }
            return .player(text)
        }
        throw fail(.verb, expected)
    }
}
