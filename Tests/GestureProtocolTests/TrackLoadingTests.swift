import GestureControl
import Testing

/// `TrackLoading` on a virtual clock: a new track without a length waits for it, at most
/// `hold` ms; a track with its length, the same track again, or no track is never held.
struct TrackLoadingTests {
    static func snapshot(
        _ title: String?, artist: String? = nil, length: Double? = nil, player: String = "org.mpris.MediaPlayer2.mpv"
    ) -> MediaSnapshot {
        var s = MediaSnapshot()
        s.players = [MediaSnapshot.Player(id: player, name: "mpv")]
        s.player = player
        s.status = .playing
        s.title = title
        s.artist = artist
        s.length = length
        return s
    }

    static let first = snapshot("Bølgen", artist: "Ane Brun", length: 60_192)

    /// mpv's next track as it was seen: its file's name and no length, then the real tags 61 ms
    /// later. The name is held back; the real track goes at once — so it is told once.
    @Test func mpvsFileNameWaitsForTheRealTags() {
        var loading = TrackLoading()
        let provisional = Self.snapshot("two.mp3")
        #expect(loading.wait(for: provisional, after: Self.first, now: 1_000) == 250)
        #expect(loading.wait(for: provisional, after: Self.first, now: 1_040) == 210)
        let real = Self.snapshot("Second Light", artist: "Artist B", length: 60_192)
        #expect(loading.wait(for: real, after: Self.first, now: 1_061) == nil)
        #expect(MediaEvent.changes(from: Self.first, to: real).map(\.kind) == [.track])
    }

    /// A stream that never gives a length is told after `hold`; then it is the track told, and
    /// the same track is not held again.
    @Test func aTrackThatNeverGetsALengthIsToldAfterTheHold() {
        var loading = TrackLoading(hold: 100)
        let radio = Self.snapshot("Morning show", artist: "Radio")
        #expect(loading.wait(for: radio, after: Self.first, now: 0) == 100)
        #expect(loading.wait(for: radio, after: Self.first, now: 99.5) == 0.5)
        #expect(loading.wait(for: radio, after: Self.first, now: 100) == nil)
        #expect(loading.wait(for: radio, after: radio, now: 150) == nil)
        var paused = radio
        paused.status = .paused
        #expect(loading.wait(for: paused, after: radio, now: 200) == nil, "the same track: never held again")
        // The next title of the stream starts its own hold.
        let next = Self.snapshot("News", artist: "Radio")
        #expect(loading.wait(for: next, after: radio, now: 300) == 100)
    }

    @Test func aTrackWithItsLengthNoTrackOrNoPlayerIsNeverHeld() {
        var loading = TrackLoading()
        #expect(loading.wait(for: Self.snapshot("Two", length: 5), after: Self.first, now: 0) == nil)
        #expect(loading.wait(for: Self.snapshot(nil), after: Self.first, now: 0) == nil)
        #expect(loading.wait(for: MediaSnapshot(unavailable: .noPlayer), after: Self.first, now: 0) == nil)
        // The first snapshot of all (nothing told yet) waits like any new track.
        #expect(loading.wait(for: Self.snapshot("Live"), after: nil, now: 0) == 250)
    }

    /// Another player's track of the same name is a new track.
    @Test func anotherPlayerIsAnotherTrack() {
        var loading = TrackLoading()
        let here = Self.snapshot("Live")
        let there = Self.snapshot("Live", player: "org.mpris.MediaPlayer2.vlc")
        #expect(loading.wait(for: there, after: here, now: 0) == 250)
    }
}
