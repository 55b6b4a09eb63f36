import GestureControl
import GestureEngine
import Testing

@testable import GestureProtocol

/// The additive `media` messages (docs/protocol.md "Media"): a touchpad's commands are read and
/// handed on while a player is followed (with control off too), refused otherwise; a page that
/// asked (`watch`) hears the players' state with the position moved on to the moment it is
/// sent, and each cover once; a page that did not ask hears nothing.
struct MediaMessageTests {
    static func playing() -> MediaSnapshot {
        var snapshot = MediaSnapshot()
        snapshot.player = "org.mpris.MediaPlayer2.mpv"
        snapshot.players = [.init(id: "org.mpris.MediaPlayer2.mpv", name: "mpv")]
        snapshot.status = .playing
        snapshot.title = "Night Drive"
        snapshot.artist = "The Testers"
        snapshot.length = 60_000
        snapshot.position = 10_000
        snapshot.positionAt = 1_000
        snapshot.volume = 0.5
        snapshot.canSeek = true
        snapshot.art = .init(key: "00aa", dataURL: "data:image/png;base64,AAAA")
        return snapshot
    }

    @Test func commandsAreReadAndHandedOnWithControlOff() {
        var (session, output) = ControlMessageTests.touchpad(.off(reason: "--control off"))
        session.updateMedia(Self.playing(), now: 1_000, into: &output)
        output.removeAll()
        for message in [
            #"{"type":"media","do":"play-pause"}"#, #"{"type":"media","do":"next"}"#,
            #"{"type":"media","do":"seek","position":83000}"#, #"{"type":"media","do":"volume","volume":0.25}"#,
            #"{"type":"media","do":"player","player":"org.mpris.MediaPlayer2.vlc"}"#,
        ] {
            session.receive(message, at: 2, into: &output)
        }
        #expect(
            output.mediaCommands == [
                .playPause, .next, .seek(milliseconds: 83_000), .volume(0.25), .player("org.mpris.MediaPlayer2.vlc"),
            ])
        #expect(TestSupport.errorCodes(output).isEmpty)
    }

    @Test func badCommandsAndNoPlayerAreRefused() {
        var (session, output) = ControlMessageTests.touchpad(ControlMessageTests.x11)
        session.receive(#"{"type":"media","do":"next"}"#, at: 1, into: &output)
        #expect(TestSupport.errorCodes(output) == ["media_unavailable"] && output.mediaCommands.isEmpty)
        output.removeAll()
        session.updateMedia(Self.playing(), now: 1_000, into: &output)
        output.removeAll()
        for message in [
            #"{"type":"media","do":"rewind"}"#, #"{"type":"media"}"#, #"{"type":"media","do":"seek","position":-1}"#,
            #"{"type":"media","do":"volume","volume":2}"#, #"{"type":"media","do":"player","player":""}"#,
        ] {
            session.receive(message, at: 2, into: &output)
        }
        #expect(TestSupport.errorCodes(output) == Array(repeating: "bad_field", count: 5))
        #expect(output.mediaCommands.isEmpty)
    }

    @Test func thePageHearsThePlayersAndEachCoverOnce() {
        var (session, output) = ControlMessageTests.touchpad(.off(reason: "off"))
        // Unasked, nothing: a client of the base protocol never sees a media message.
        session.updateMedia(Self.playing(), now: 3_000, into: &output)
        #expect(TestSupport.frames(output).isEmpty)
        session.receive(#"{"type":"media","do":"watch"}"#, at: 1, into: &output)
        #expect(output.mediaWatchStarted && output.mediaCommands == [.watch] && TestSupport.errorCodes(output).isEmpty)
        output.removeAll()
        session.updateMedia(Self.playing(), now: 4_000, into: &output)
        let frames = TestSupport.frames(output).map(\.1)
        #expect(frames.map { $0["type"] as? String } == ["media-art", "media"])
        #expect(frames[0]["art"] as? String == "00aa" && frames[0]["data"] as? String == "data:image/png;base64,AAAA")
        let media = frames[1]
        // Playing since 1,000 ms at 10 s: 3 s later it is at 13 s.
        #expect(media["position"] as? Double == 13_000 && media["status"] as? String == "playing")
        #expect(media["title"] as? String == "Night Drive" && media["artist"] as? String == "The Testers")
        #expect(media["available"] as? Bool == true && media["art"] as? String == "00aa")
        output.removeAll()
        session.updateMedia(Self.playing(), now: 5_000, into: &output)
        #expect(TestSupport.frames(output).map { $0.1["type"] as? String } == ["media"])
        output.removeAll()
        session.updateMedia(MediaSnapshot(unavailable: .noBus), now: 6_000, into: &output)
        #expect(TestSupport.frames(output).first?.1["why"] as? String == "no-bus")
    }

    @Test func observersNeitherWatchNorSend() {
        var session = ProtocolSession(
            sessionID: "o", config: GestureConfig(), limits: ProtocolLimits(), control: .off(reason: "x"))
        var output = SessionOutput()
        session.receive(#"{"type":"hello","protocol":1,"role":"observer"}"#, at: 0, into: &output)
        output.removeAll()
        session.receive(#"{"type":"media","do":"watch"}"#, at: 1, into: &output)
        session.receive(#"{"type":"media","do":"next"}"#, at: 1, into: &output)
        #expect(TestSupport.errorCodes(output) == ["observer_read_only", "observer_read_only"])
        output.removeAll()
        session.updateMedia(Self.playing(), now: 1_000, into: &output)
        #expect(TestSupport.frames(output).isEmpty && output.mediaCommands.isEmpty)
    }

    @Test func aPageBeforeHelloHearsNothing() {
        var session = ProtocolSession(
            sessionID: "n", config: GestureConfig(), limits: ProtocolLimits(), control: .off(reason: "x"))
        var output = SessionOutput()
        session.updateMedia(Self.playing(), now: 1_000, into: &output)
        #expect(TestSupport.frames(output).isEmpty)
    }

    /// The computer's own volume: `computer-volume` and `computer-mute` are handed on while the
    /// server can ask the sound server (with no player at all), refused with their own message
    /// otherwise; the snapshot says the volume, unavailable or not.
    @Test func theComputersVolume() {
        var (session, output) = ControlMessageTests.touchpad(.off(reason: "--control off"))
        session.receive(#"{"type":"media","do":"computer-mute"}"#, at: 1, into: &output)
        let refusal = TestSupport.frames(output).first?.1["message"] as? String ?? ""
        #expect(TestSupport.errorCodes(output) == ["media_unavailable"] && refusal.contains("sound server"))
        output.removeAll()
        var none = MediaSnapshot(unavailable: .noPlayer)
        none.computer = .init(volume: 0.4, muted: true)
        session.receive(#"{"type":"media","do":"watch"}"#, at: 2, into: &output)
        output.removeAll()
        session.updateMedia(none, now: 1_000, into: &output)
        let told = TestSupport.frames(output).first?.1
        #expect((told?["computer"] as? [String: Any])?["volume"] as? Double == 0.4)
        #expect((told?["computer"] as? [String: Any])?["muted"] as? Bool == true && told?["available"] as? Bool == false)
        output.removeAll()
        for message in [
            #"{"type":"media","do":"computer-volume","volume":0.55}"#, #"{"type":"media","do":"computer-mute"}"#,
            #"{"type":"media","do":"computer-volume","volume":1.5}"#, #"{"type":"media","do":"next"}"#,
        ] {
            session.receive(message, at: 3, into: &output)
        }
        #expect(output.mediaCommands == [.computerVolume(0.55), .computerMute])
        #expect(TestSupport.errorCodes(output) == ["bad_field", "media_unavailable"])  // no player for `next`
    }
}
