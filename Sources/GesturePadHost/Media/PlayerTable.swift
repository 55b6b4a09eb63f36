import GestureControl

/// The MPRIS players on the session bus as the media thread last heard them (docs/control.md
/// "Media players"), and which one the pages follow. Pure: the loop feeds it what the bus
/// says, with the time; it makes the `MediaSnapshot` the pages get.
struct PlayerTable {
    /// The prefix every MPRIS player's bus name has.
    static let prefix = "org.mpris.MediaPlayer2."

    /// One player.
    struct Entry {
        /// Its well-known bus name, and the unique name that owns it (whose signals count).
        var name: String
        var owner: String
        /// What it calls itself (`Identity`), or the end of its bus name.
        var identity: String
        /// The `org.mpris.MediaPlayer2.Player` properties, by name.
        var properties: [String: DBusValue] = [:]
        /// The position when `positionAt` was read (ms), and when (server clock, ms).
        var position: Double = 0
        var positionAt: Double = 0
        /// When it was last seen playing (server clock): the one followed when none is chosen.
        var playedAt: Double?
        /// The order it appeared in.
        var serial: Int
    }

    private(set) var entries: [String: Entry] = [:]
    /// The player a page chose (`MediaCommand.player`), while it runs.
    private(set) var chosen: String?
    private var nextSerial = 0

    /// A player appeared (or was read again): `properties` are all of its player properties.
    mutating func found(
        _ name: String, owner: String, identity: String?, properties: [String: DBusValue], at now: Double
    ) {
        let fallback = String(name.dropFirst(Self.prefix.count))
        var entry =
            entries[name]
            ?? Entry(name: name, owner: owner, identity: fallback, serial: nextSerial)
        if entries[name] == nil { nextSerial += 1 }
        entry.owner = owner
        if let identity, !identity.isEmpty { entry.identity = identity }
        entry.properties = properties
        entries[name] = entry
        if let position = properties["Position"]?.number { moved(name, toMicroseconds: position, at: now) }
        notePlaying(name, at: now)
    }

    /// A player left the bus.
    mutating func lost(_ name: String) {
        entries.removeValue(forKey: name)
        if chosen == name { chosen = nil }
    }

    /// The bus name of the player owned by unique name `owner`, if one is.
    func name(ownedBy owner: String) -> String? {
        entries.values.first { $0.owner == owner }?.name
    }

    /// Some of a player's properties changed (`PropertiesChanged`); `invalidated` ones are gone.
    mutating func changed(_ name: String, _ changes: [String: DBusValue], invalidated: [String], at now: Double) {
        guard var entry = entries[name] else { return }
        let wasPlaying = entry.properties["PlaybackStatus"]?.text == "Playing"
        // The position moves on until the state changes: keep it as at `now` before it does.
        if wasPlaying, changes["PlaybackStatus"] != nil || changes["Rate"] != nil {
            entry.position = Self.extrapolated(entry, at: now)
            entry.positionAt = now
        }
        for (key, value) in changes { entry.properties[key] = value }
        for key in invalidated { entry.properties.removeValue(forKey: key) }
        entries[name] = entry
        notePlaying(name, at: now)
    }

    /// The player's position is `microseconds` at `now` (`Seeked`, or read with `Get`).
    mutating func moved(_ name: String, toMicroseconds microseconds: Double, at now: Double) {
        entries[name]?.position = max(0, microseconds / 1_000)
        entries[name]?.positionAt = now
    }

    /// Follow player `name` from now on (when it runs).
    mutating func choose(_ name: String) {
        if entries[name] != nil { chosen = name }
    }

    /// The player followed: the one chosen, else the one playing (or played) last, else the
    /// first to appear.
    var followed: Entry? {
        if let chosen, let entry = entries[chosen] { return entry }
        let played = entries.values.filter { $0.playedAt != nil }.max { ($0.playedAt ?? 0) < ($1.playedAt ?? 0) }
        return played ?? entries.values.min { $0.serial < $1.serial }
    }

    /// What the pages are told, with the followed player's cover `art` (read by the loop).
    func snapshot(art: MediaSnapshot.Art?) -> MediaSnapshot {
        guard let entry = followed else { return MediaSnapshot(unavailable: .noPlayer) }
        var snapshot = MediaSnapshot()
        snapshot.player = entry.name
        snapshot.players = entries.values.sorted { $0.serial < $1.serial }.map {
            MediaSnapshot.Player(id: $0.name, name: $0.identity)
        }
        let properties = entry.properties
        snapshot.status =
            switch properties["PlaybackStatus"]?.text {
            case "Playing": .playing
            case "Paused": .paused
            default: .stopped
            }
        let metadata = properties["Metadata"]?.entries ?? [:]
        snapshot.title = metadata["xesam:title"]?.text
        snapshot.artist = Self.artists(metadata["xesam:artist"])
        snapshot.album = metadata["xesam:album"]?.text
        snapshot.length = metadata["mpris:length"]?.number.map { $0 / 1_000 }
        snapshot.position = entry.position
        snapshot.positionAt = entry.positionAt
        snapshot.rate = properties["Rate"]?.number ?? 1
        snapshot.volume = properties["Volume"]?.number.map { min(1, max(0, $0)) }
        snapshot.canSeek = properties["CanSeek"]?.bool ?? false
        snapshot.canNext = properties["CanGoNext"]?.bool ?? false
        snapshot.canPrevious = properties["CanGoPrevious"]?.bool ?? false
        snapshot.art = art
        return snapshot
    }

    /// The followed player's `mpris:artUrl`, if any.
    var followedArtURL: String? {
        followed?.properties["Metadata"]?.entries["mpris:artUrl"]?.text
    }

    /// Where the followed player is at `now` (ms; 0 without one), moved on at its rate while
    /// it plays, within the track (as `MediaSnapshot.position(at:)` reckons it).
    func followedPosition(at now: Double) -> Double {
        guard let entry = followed else { return 0 }
        guard entry.properties["PlaybackStatus"]?.text == "Playing" else { return entry.position }
        let moved = Self.extrapolated(entry, at: now)
        let length = entry.properties["Metadata"]?.entries["mpris:length"]?.number.map { $0 / 1_000 }
        return max(0, length.map { min(moved, $0) } ?? moved)
    }

    /// The followed player's current track id (`mpris:trackid`), for `SetPosition`.
    var followedTrack: String? {
        followed?.properties["Metadata"]?.entries["mpris:trackid"]?.text
    }

    private mutating func notePlaying(_ name: String, at now: Double) {
        if entries[name]?.properties["PlaybackStatus"]?.text == "Playing" { entries[name]?.playedAt = now }
    }

    private static func extrapolated(_ entry: Entry, at now: Double) -> Double {
        let rate = entry.properties["Rate"]?.number ?? 1
        return entry.position + max(0, now - entry.positionAt) * rate
    }

    /// `xesam:artist` is a list (`as`); some players send one string.
    private static func artists(_ value: DBusValue?) -> String? {
        switch value {
        case .stringArray(let names)?: names.isEmpty ? nil : names.joined(separator: ", ")
        case .string(let name)?: name
        default: nil
        }
    }
}
