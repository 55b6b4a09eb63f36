import GestureControl
import GestureProtocol
import Testing

/// What `MediaEvent.changes` makes of two snapshots: the start is no event; a player that
/// appears or leaves, a new track, a new state each once, in that order.
struct MediaEventTests {
    static let mpv = MediaSnapshot.Player(id: "org.mpris.MediaPlayer2.mpv", name: "mpv")
    static let vlc = MediaSnapshot.Player(id: "org.mpris.MediaPlayer2.vlc", name: "VLC media player")

    static func snapshot(
        _ title: String?, _ status: MediaSnapshot.Status, players: [MediaSnapshot.Player] = [mpv], length: Double? = nil
    ) -> MediaSnapshot {
        var s = MediaSnapshot()
        s.players = players
        s.player = players.first?.id
        s.status = status
        s.title = title
        s.length = length
        return s
    }

    @Test func theStartIsNoEvent() {
        #expect(MediaEvent.changes(from: nil, to: Self.snapshot("One", .playing)).isEmpty)
    }

    @Test func aNewTrackThenItsState() {
        let events = MediaEvent.changes(from: Self.snapshot("One", .paused), to: Self.snapshot("Two", .playing, length: 5))
        #expect(events.map(\.kind) == [.track, .playing])
        #expect(events[0].title == "Two" && events[0].length == 5 && events[0].name == "mpv" && events[0].status == .playing)
    }

    /// The length alone arriving later is the same track; a state change alone is only that.
    @Test func sameTrackLaterLength() {
        let old = Self.snapshot("One", .playing)
        #expect(MediaEvent.changes(from: old, to: Self.snapshot("One", .playing, length: 9)).isEmpty)
        #expect(MediaEvent.changes(from: old, to: Self.snapshot("One", .paused)).map(\.kind) == [.paused])
        #expect(MediaEvent.changes(from: old, to: Self.snapshot("One", .stopped)).map(\.kind) == [.stopped])
        // A track without a title (a stream still loading) is not a track yet.
        #expect(MediaEvent.changes(from: old, to: Self.snapshot(nil, .playing)).isEmpty)
    }

    @Test func playersAppearAndLeave() {
        let one = Self.snapshot("One", .paused)
        let two = Self.snapshot("One", .paused, players: [Self.mpv, Self.vlc])
        let appeared = MediaEvent.changes(from: one, to: two)
        #expect(appeared.map(\.kind) == [.appeared] && appeared[0].name == "VLC media player")
        let left = MediaEvent.changes(from: two, to: one)
        #expect(left.map(\.kind) == [.left] && left[0].player == Self.vlc.id)
    }

    /// The followed player quitting while it played stops playback, then leaves; from no player
    /// (or no bus) one that starts playing appears, brings its track and plays.
    @Test func theFollowedPlayerQuitsAndComesBack() {
        let playing = Self.snapshot("One", .playing)
        let gone = MediaEvent.changes(from: playing, to: MediaSnapshot(unavailable: .noPlayer))
        #expect(gone.map(\.kind) == [.stopped, .left] && gone[0].title == "One")
        let back = MediaEvent.changes(from: MediaSnapshot(unavailable: .noBus), to: playing)
        #expect(back.map(\.kind) == [.appeared, .track, .playing])
        // A stopped player leaving stops nothing.
        #expect(
            MediaEvent.changes(from: Self.snapshot("One", .stopped), to: MediaSnapshot(unavailable: .noPlayer)).map(\.kind) == [
                .left
            ])
    }

    /// The hook's JSON line: the event's fields, the length whole, texts escaped, the time last.
    @Test func jsonLine() {
        struct Noon: GestureLogTime {
            func appendISO8601(into out: inout [UInt8]) { out += Array("2026-12-07T12:00:00.000Z".utf8) }
        }
        var out: [UInt8] = []
        let event = MediaEvent(
            .track, player: "org.mpris.MediaPlayer2.mpv", name: "mpv", status: .playing, title: "A \"B\"", length: 1_000.6)
        MessageEncoder.appendMediaEvent(event, time: Noon(), to: &out)
        #expect(
            String(decoding: out, as: UTF8.self)
                == #"{"type":"media","event":"track","player":"org.mpris.MediaPlayer2.mpv","name":"mpv","status":"playing","title":"A \"B\"","length":1001,"time":"2026-12-07T12:00:00.000Z"}"#
        )
    }
}
