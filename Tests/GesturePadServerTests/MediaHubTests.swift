import GestureControl
import GestureProtocol
import Testing

@testable import GesturePadServer

/// The media players through the hub (docs/protocol.md "Media"): a snapshot reaches every page
/// that asked (`watch`) — a page that asks later hears the last one at once — an unchanged
/// snapshot reaches no one, a page that did not ask hears nothing, and a touchpad's command
/// becomes a media action.
struct MediaHubTests {
    static func playing(_ title: String) -> MediaSnapshot {
        var snapshot = MediaSnapshot()
        snapshot.player = "org.mpris.MediaPlayer2.mpv"
        snapshot.players = [.init(id: "org.mpris.MediaPlayer2.mpv", name: "mpv")]
        snapshot.status = .paused
        snapshot.title = title
        return snapshot
    }

    @Test func snapshotsReachPagesAndCommandsBecomeActions() {
        let h = HubHarness()
        let early = ControlStatusHubTests.touchpad(h)
        h.send(early, #"{"type":"media","do":"watch"}"#, at: 1)
        let silent = ControlStatusHubTests.touchpad(h)
        h.handle(.mediaChanged(Self.playing("One"), now: 5))
        #expect(h.drain(silent).frames.isEmpty)
        let told = h.drain(early).frames
        #expect(told.count == 1 && told[0].contains(#""type":"media""#) && told[0].contains(#""title":"One""#))
        // The same snapshot again: nothing.
        h.handle(.mediaChanged(Self.playing("One"), now: 6))
        #expect(h.drain(early).frames.isEmpty)
        // A page that asks now hears the last one at once.
        let late = ControlStatusHubTests.touchpad(h)
        h.send(late, #"{"type":"media","do":"watch"}"#, at: 7)
        let frames = h.drain(late).frames
        #expect(frames.count == 1 && frames[0].contains(#""title":"One""#))
        h.send(late, #"{"type":"media","do":"next"}"#, at: 8)
        #expect(h.transport.mediaCommands == [.watch, .watch, .next])  // a watch is also the media thread's to hear
    }

    /// Player events reach the sinks (hooks) whether or not a page watches: none for the first
    /// snapshot (where things stand at the start), then what changed, once.
    @Test func playerEventsReachTheSinks() {
        let h = HubHarness()
        h.handle(.mediaChanged(Self.playing("One"), now: 1))
        #expect(h.sink.media.isEmpty)
        var playing = Self.playing("Two")
        playing.status = .playing
        h.handle(.mediaChanged(playing, now: 2))
        #expect(h.sink.media.map(\.kind) == [.track, .playing])
        #expect(h.sink.media.first?.title == "Two" && h.sink.media.first?.name == "mpv")
        h.handle(.mediaChanged(playing, now: 3))  // unchanged: nothing more
        h.handle(.mediaChanged(MediaSnapshot(unavailable: .noPlayer), now: 4))
        #expect(h.sink.media.map(\.kind) == [.track, .playing, .stopped, .left])
    }

    /// A page's media command is told like a control command: to the page and to observers
    /// (who cannot send one), `watch` never.
    @Test func mediaCommandsReachObserversAsCommandNotices() {
        let h = HubHarness()
        let pad = ControlStatusHubTests.touchpad(h)
        let observer = h.open()
        h.send(observer, HubHarness.observerHello, at: 0)
        _ = h.drain(observer)
        h.handle(.mediaChanged(Self.playing("One"), now: 1))
        h.send(pad, #"{"type":"media","do":"watch"}"#, at: 2)
        h.send(pad, #"{"type":"media","do":"next"}"#, at: 3)
        h.send(pad, #"{"type":"media","do":"volume","volume":0.25}"#, at: 4)
        let next = #"{"type":"command","session":"1","command":"media","do":"next"}"#
        let volume = #"{"type":"command","session":"1","command":"media","do":"volume","volume":0.25}"#
        #expect(h.drain(observer).frames == [next, volume])
        #expect(h.drain(pad).frames.filter { $0.contains(#""type":"command""#) } == [next, volume])
        h.send(observer, #"{"type":"media","do":"next"}"#, at: 5)
        #expect(h.drain(observer).frames.first?.contains("observer_read_only") == true)
        #expect(h.transport.mediaCommands == [.watch, .next, .volume(0.25)])
    }
}
