import GestureControl
import GesturePadSystem
import Logging

/// The media thread's state and turn (docs/control.md "Media players"): owns its session bus
/// connection, follows the MPRIS players through `NameOwnerChanged`, `PropertiesChanged` and
/// `Seeked`, carries out the pages' commands on the followed player, and tells the observer a
/// new `MediaSnapshot` when what the pages see changes — at most every `minimumInterval` ms.
final class MediaLoop {
    /// The shortest time between two snapshots told (20 a second at most).
    static let minimumInterval = 50.0
    /// How long to wait before trying a bus that could not be opened again.
    static let retryMilliseconds: Int32 = 5_000

    private let players: MediaPlayers
    private let wakeup: EventWakeup
    private let logger: Logger
    /// The media thread's clock, ms (the server's: `SystemWorkerClock`).
    private let clock: any WorkerClock
    private var bus: SDBusConnection?
    private var table = PlayerTable()
    /// A new track still loading (no length yet) is held back a moment (`TrackLoading`).
    private var loading = TrackLoading()
    /// The last snapshot told, and when.
    private var told: MediaSnapshot?
    private var toldAt = -Double.infinity
    /// Whether the last attempt to open the bus failed (then `noBus` was told).
    private var busMissing = false
    private var lastAttempt = -Double.infinity
    /// The cover of the followed track, by its `mpris:artUrl` (read once per URL).
    private var art: (url: String, art: MediaSnapshot.Art?)?
    /// The computer's own volume, as last read (`ComputerSound`): at start, when a page asks to
    /// hear the players, and after each of the pages' changes to it (nil: it cannot be asked).
    private var computer: MediaSnapshot.Computer?
    private var computerRead = false

    init(players: MediaPlayers, wakeup: EventWakeup, clock: any WorkerClock, logger: Logger) {
        self.clock = clock
        self.players = players
        self.wakeup = wakeup
        self.logger = logger
    }

    /// One turn of the `WorkerThread`: the commands posted, what the bus has, the snapshot if
    /// it changed, then a wait in `poll` until either has more or a snapshot is due.
    func turn() -> WorkerTurn {
        wakeup.drain()
        let (commands, stopping) = players.take()
        guard !stopping else {
            bus?.close()
            bus = nil
            return .exit
        }
        let now = clock.now
        if bus == nil, now - lastAttempt >= Double(Self.retryMilliseconds) { connect(at: now) }
        if !computerRead {
            computerRead = true
            computer = ComputerSound.read()
        }
        for command in commands { carryOut(command, at: now) }
        pump()
        let due = tell(at: clock.now)
        let poll = bus?.pollRequest()
        var timeout = poll?.timeoutMilliseconds ?? (bus == nil ? Self.retryMilliseconds : -1)
        if let due { timeout = timeout < 0 ? due : min(timeout, due) }
        wakeup.wait(bus: poll.map { ($0.fileDescriptor, $0.events) }, timeoutMilliseconds: timeout)
        return .again
    }

    // MARK: The bus

    private func connect(at now: Double) {
        lastAttempt = now
        do {
            let connection = try SDBusConnection.openSessionBus()
            connection.setCallTimeout(seconds: 2)
            try connection.subscribe(interface: MediaBus.daemon, member: "NameOwnerChanged")
            try connection.subscribe(interface: MediaBus.properties, member: "PropertiesChanged")
            try connection.subscribe(interface: MediaBus.player, member: "Seeked")
            bus = connection
            busMissing = false
            let names = try connection.call(MediaBus.listNames()).first
            if case .stringArray(let all)? = names {
                for name in all.sorted() where name.hasPrefix(PlayerTable.prefix) { load(name, at: now) }
            }
            logger.debug("media: watching the session bus's MPRIS players", metadata: ["media.players": "\(table.entries.count)"])
        } catch {
            bus?.close()
            bus = nil
            if !busMissing { logger.info("media: no session bus, no media players (\(error))") }
            busMissing = true
        }
    }

    /// Reads player `name` whole: its owner, identity and player properties.
    private func load(_ name: String, at now: Double) {
        guard let bus else { return }
        do {
            guard let owner = try bus.call(MediaBus.owner(of: name)).first?.text else { return }
            let identity = try? bus.call(MediaBus.get(name, MediaBus.root, "Identity")).first?.text
            let properties = try bus.call(MediaBus.getAll(name, MediaBus.player)).first?.entries ?? [:]
            table.found(name, owner: owner, identity: identity, properties: properties, at: now)
        } catch {
            logger.debug("media: could not read a player", metadata: ["media.player": "\(name)", "error": "\(error)"])
        }
    }

    private func pump() {
        while let bus {
            if let error = bus.process() {
                logger.info("media: the session bus connection broke (\(error.message))")
                bus.close()
                self.bus = nil
                table = PlayerTable()
                return
            }
            let incoming = bus.takeInbox()
            if incoming.isEmpty { return }
            let now = clock.now
            for message in incoming { handle(message, at: now) }
        }
    }

    private func handle(_ message: SDBusIncoming, at now: Double) {
        guard case .signal(let signal) = message else { return }
        switch (signal.interface, signal.member) {
        case (MediaBus.daemon, "NameOwnerChanged"):
            guard signal.arguments.count == 3, let name = signal.arguments[0].text, name.hasPrefix(PlayerTable.prefix)
            else { return }
            if signal.arguments[2].text?.isEmpty ?? true {
                table.lost(name)
            } else {
                load(name, at: now)
            }
        case (MediaBus.properties, "PropertiesChanged"):
            guard signal.path == MediaBus.path, signal.arguments.count >= 2, signal.arguments[0].text == MediaBus.player,
                let name = table.name(ownedBy: signal.sender)
            else { return }
            var invalidated: [String] = []
            if signal.arguments.count > 2, case .stringArray(let names) = signal.arguments[2] { invalidated = names }
            let changes = signal.arguments[1].entries
            table.changed(name, changes, invalidated: invalidated, at: now)
            // `Position` is never signalled: read it again when the track or the state changes.
            if changes["Metadata"] != nil || changes["PlaybackStatus"] != nil { readPosition(of: name) }
        case (MediaBus.player, "Seeked"):
            guard signal.path == MediaBus.path, let name = table.name(ownedBy: signal.sender),
                let position = signal.arguments.first?.number
            else { return }
            table.moved(name, toMicroseconds: position, at: now)
        default:
            break
        }
    }

    private func readPosition(of name: String) {
        guard let bus, let position = try? bus.call(MediaBus.get(name, MediaBus.player, "Position")).first?.number else {
            return
        }
        table.moved(name, toMicroseconds: position, at: clock.now)
    }

    // MARK: Commands

    private func carryOut(_ command: MediaCommand, at now: Double) {
        switch command {
        case .player(let name):
            table.choose(name)
            return
        case .watch:
            // A page looks now: what changes without telling (the computer's volume) is read again.
            computer = ComputerSound.read()
            return
        case .computerVolume(let volume):
            ComputerSound.set(volume: volume)
            computer = ComputerSound.read()
            return
        case .computerMute:
            ComputerSound.toggleMute()
            computer = ComputerSound.read()
            return
        case .playPause, .play, .pause, .stop, .next, .previous, .volume, .seek:
            break
        }
        guard let bus, let player = table.followed?.name else { return }
        let call: DBusMethodCall
        switch command {
        case .playPause: call = MediaBus.call(player, "PlayPause")
        case .play: call = MediaBus.call(player, "Play")
        case .pause: call = MediaBus.call(player, "Pause")
        case .stop: call = MediaBus.call(player, "Stop")
        case .next: call = MediaBus.call(player, "Next")
        case .previous: call = MediaBus.call(player, "Previous")
        case .volume(let volume): call = MediaBus.set(player, "Volume", .double(volume))
        case .seek(let milliseconds):
            let microseconds = Int64((milliseconds * 1_000).rounded())
            if let track = table.followedTrack {
                call = MediaBus.call(player, "SetPosition", [.objectPath(track), .int64(microseconds)])
            } else {
                // Without a track id, a relative seek from where the player is now.
                let here = table.followedPosition(at: now)
                call = MediaBus.call(player, "Seek", [.int64(microseconds - Int64((here * 1_000).rounded()))])
            }
        case .player, .watch, .computerVolume, .computerMute: return
        }
        if !bus.send(call) {
            logger.info("media: a command could not reach the player", metadata: ["media.player": "\(player)"])
        }
    }

    // MARK: Telling

    /// Tells the observer the snapshot when it changed, `minimumInterval` has passed and no new
    /// track is still loading; returns in how many ms one is due when it changed too soon (nil:
    /// nothing waits).
    private func tell(at now: Double) -> Int32? {
        if bus == nil && !busMissing { return nil }
        var snapshot = bus == nil ? MediaSnapshot(unavailable: .noBus) : table.snapshot(art: cover())
        snapshot.computer = computer
        guard snapshot != told else { return nil }
        if let hold = loading.wait(for: snapshot, after: told, now: now) { return Int32(hold.rounded(.up)) }
        let wait = toldAt + Self.minimumInterval - now
        guard wait <= 0 else { return Int32(wait.rounded(.up)) }
        told = snapshot
        toldAt = now
        players.tell(snapshot)
        return nil
    }

    /// The followed track's cover, read once per `mpris:artUrl`.
    private func cover() -> MediaSnapshot.Art? {
        guard let url = table.followedArtURL else { return nil }
        if let art, art.url == url { return art.art }
        let read = MediaArt.read(url)
        art = (url, read)
        return read
    }
}
