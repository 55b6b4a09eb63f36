import GestureControl
import GestureProtocol
import Testing

@testable import GesturePadServer

/// The media players through the hub (docs/protocol.md "Media"): a snapshot reaches every page
/// that said hello — a page that says hello later hears the last one after its welcome — an
/// unchanged snapshot reaches no one, and a touchpad's command becomes a media action.
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
        h.handle(.mediaChanged(Self.playing("One"), now: 5))
        let told = h.drain(early).frames
        #expect(told.count == 1 && told[0].contains(#""type":"media""#) && told[0].contains(#""title":"One""#))
        // The same snapshot again: nothing.
        h.handle(.mediaChanged(Self.playing("One"), now: 6))
        #expect(h.drain(early).frames.isEmpty)
        // A page that says hello now hears the last one right after its welcome.
        let late = h.open()
        h.send(late, HubHarness.touchpadHello, at: 7)
        let frames = h.drain(late).frames
        #expect(frames.count == 2 && frames[0].contains(#""type":"welcome""#) && frames[1].contains(#""title":"One""#))
        h.send(late, #"{"type":"media","do":"next"}"#, at: 8)
        #expect(h.transport.mediaCommands == [.next])
        // An observer hears it too.
        let observer = h.open()
        h.send(observer, HubHarness.observerHello, at: 9)
        #expect(h.drain(observer).frames.contains { $0.contains(#""type":"media""#) })
    }
}
