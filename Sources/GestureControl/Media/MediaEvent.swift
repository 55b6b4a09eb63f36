/// Something a media player did that a user's hook can act on (docs/outputs.md "Player
/// events"): a track starts, playback starts, pauses or stops, a player appears or leaves.
/// Made by comparing two `MediaSnapshot`s (`changes(from:to:)`): pure, no bus, no clock.
public struct MediaEvent: Sendable, Equatable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The followed player's track changed: a new track, or another player is followed.
        case track
        /// Playback started (or resumed) on the followed player.
        case playing
        /// Playback paused on the followed player.
        case paused
        /// Playback stopped: the followed player stopped, or it left while playing or paused.
        case stopped
        /// A player started (appeared on the session bus).
        case appeared
        /// A player quit.
        case left

        /// The name used in the configuration file and the JSON line.
        public var name: String { rawValue }

        public init?(name: String) { self.init(rawValue: name) }
    }

    public var kind: Kind
    /// The player's bus name (`org.mpris.MediaPlayer2.…`).
    public var player: String
    /// What the player calls itself (`Identity`).
    public var name: String
    /// Its playback state after the change.
    public var status: MediaSnapshot.Status
    public var title: String?
    public var artist: String?
    public var album: String?
    /// The track's length, ms.
    public var length: Double?

    public init(
        _ kind: Kind, player: String, name: String, status: MediaSnapshot.Status, title: String? = nil,
        artist: String? = nil, album: String? = nil, length: Double? = nil
    ) {
        self.kind = kind
        self.player = player
        self.name = name
        self.status = status
        self.title = title
        self.artist = artist
        self.album = album
        self.length = length
    }

    /// The events between two snapshots, in the order they happened as far as the snapshots
    /// tell: players that appeared, then the followed player's new track, then its new state,
    /// then players that left. The first snapshot (`old` nil, the server's start) is where
    /// things stand, not a change: no events.
    public static func changes(from old: MediaSnapshot?, to new: MediaSnapshot) -> [MediaEvent] {
        guard let old else { return [] }
        let before = Set(old.players.map(\.id))
        let after = Set(new.players.map(\.id))
        var events: [MediaEvent] = []
        for player in new.players where !before.contains(player.id) {
            events.append(MediaEvent(.appeared, player: player.id, name: player.name, status: .stopped))
        }
        if new.unavailable == nil, let id = new.player {
            let name = new.players.first { $0.id == id }?.name ?? id
            func followed(_ kind: Kind) -> MediaEvent {
                MediaEvent(
                    kind, player: id, name: name, status: new.status, title: new.title, artist: new.artist,
                    album: new.album, length: new.length)
            }
            let followedBefore = old.unavailable == nil ? old.player : nil
            if new.title != nil, FollowedTrack(old) != FollowedTrack(new) {  // another player, or its new tags
                events.append(followed(.track))
            }
            let statusBefore = followedBefore == nil ? MediaSnapshot.Status.stopped : old.status
            if new.status != statusBefore {
                events.append(followed(Self.kind(of: new.status)))
            }
        } else if old.unavailable == nil, let id = old.player, old.status != .stopped {
            // The followed player left (or the bus went) while it played: playback stopped.
            let name = old.players.first { $0.id == id }?.name ?? id
            events.append(
                MediaEvent(
                    .stopped, player: id, name: name, status: .stopped, title: old.title, artist: old.artist,
                    album: old.album, length: old.length))
        }
        for player in old.players where !after.contains(player.id) {
            events.append(MediaEvent(.left, player: player.id, name: player.name, status: .stopped))
        }
        return events
    }

    private static func kind(of status: MediaSnapshot.Status) -> Kind {
        switch status {
        case .playing: .playing
        case .paused: .paused
        case .stopped: .stopped
        }
    }
}
