/// What the computer's media players are doing, as the server tells the pages (docs/protocol.md
/// "Media"): the player followed, the others to choose from, and its track and state. Plain
/// data: the media bridge makes it, the protocol encodes it.
public struct MediaSnapshot: Sendable, Hashable {
    /// Why there is nothing to show.
    public enum Unavailable: String, Sendable, Hashable {
        /// No MPRIS player runs on the session bus.
        case noPlayer = "no-player"
        /// There is no session bus (the server runs outside a desktop session).
        case noBus = "no-bus"
    }

    /// A player's playback state.
    public enum Status: String, Sendable, Hashable {
        case playing, paused, stopped
    }

    /// A player that runs, to choose from.
    public struct Player: Sendable, Hashable {
        /// Its bus name (`org.mpris.MediaPlayer2.…`).
        public var id: String
        /// What it calls itself (`Identity`).
        public var name: String

        public init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }

    /// A track's cover, read from the player's `mpris:artUrl`: `key` names it (a digest of its
    /// bytes), `dataURL` is the image itself.
    public struct Art: Sendable, Hashable {
        public var key: String
        public var dataURL: String

        public init(key: String, dataURL: String) {
            self.key = key
            self.dataURL = dataURL
        }
    }

    /// The computer's own sound output (the desktop's sound server's default output), whatever
    /// the players do.
    public struct Computer: Sendable, Hashable {
        /// 0 … 1 (PipeWire allows more; shown and set within 0 … 1).
        public var volume: Double
        public var muted: Bool

        public init(volume: Double, muted: Bool) {
            self.volume = volume
            self.muted = muted
        }
    }

    /// Nil when a player is followed; otherwise why none is.
    public var unavailable: Unavailable?
    public var player: String?
    public var players: [Player] = []
    public var status: Status = .stopped
    public var title: String?
    public var artist: String?
    public var album: String?
    /// The track's length, ms.
    public var length: Double?
    /// The position when `positionAt` was read, ms.
    public var position: Double = 0
    /// When `position` was read (the server's monotonic clock, ms).
    public var positionAt: Double = 0
    public var rate: Double = 1
    /// The player's volume, 0 … 1 (nil: it does not say).
    public var volume: Double?
    public var canSeek = false
    public var canNext = false
    public var canPrevious = false
    public var art: Art?
    /// The computer's own volume, when its sound server can be asked (nil: it cannot; the page
    /// falls back to the media keys).
    public var computer: Computer?

    public init(unavailable: Unavailable? = nil) {
        self.unavailable = unavailable
    }

    /// The position at `now` (server ms): moving on at `rate` while playing, within the track.
    public func position(at now: Double) -> Double {
        guard status == .playing else { return position }
        let moved = position + max(0, now - positionAt) * rate
        return max(0, length.map { min(moved, $0) } ?? moved)
    }
}
