/// What a touchpad page asks of the computer's media players (docs/protocol.md "Media"): the
/// `do` of a `media` message, validated.
public enum MediaCommand: Sendable, Hashable {
    /// Hear the players from now on: the state now, then every change (no page hears them
    /// unasked: a client of the base protocol never gets a `media` message).
    case watch
    case playPause
    case play
    case pause
    case stop
    case next
    case previous
    /// Jump to this position in the track, ms from its start (≥ 0).
    case seek(milliseconds: Double)
    /// The player's own volume, 0 … 1.
    case volume(Double)
    /// Follow this player from now on (an id of `MediaSnapshot.players`).
    case player(String)
    /// The computer's own volume (its sound server's default output), 0 … 1.
    case computerVolume(Double)
    /// Mute the computer's output, or unmute it (a toggle).
    case computerMute

    /// Its `do` on the wire.
    public var name: String {
        switch self {
        case .watch: "watch"
        case .playPause: "play-pause"
        case .play: "play"
        case .pause: "pause"
        case .stop: "stop"
        case .next: "next"
        case .previous: "previous"
        case .seek: "seek"
        case .volume: "volume"
        case .player: "player"
        case .computerVolume: "computer-volume"
        case .computerMute: "computer-mute"
        }
    }

    /// Whether it is for the computer's sound output rather than a player.
    public var isComputer: Bool {
        switch self {
        case .computerVolume, .computerMute: true
        case .watch, .playPause, .play, .pause, .stop, .next, .previous, .seek, .volume, .player: false
        }
    }

    /// The wire names of `do` that take no other field.
    public static let plain: [(name: String, command: MediaCommand)] = [
        .watch, .playPause, .play, .pause, .stop, .next, .previous, .computerMute,
    ]
    .map { ($0.name, $0) }
}
