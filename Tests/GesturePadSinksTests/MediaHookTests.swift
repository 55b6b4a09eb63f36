import Foundation
import GestureControl
import GesturePadSettings
import GestureProtocol
import Testing

@testable import GesturePadSinks

/// Hooks on player events (docs/outputs.md "Player events"): real processes get the event as
/// JSON on stdin, its texts as variables and only its enumerated and numeric fields in argv;
/// a rule's `media` and `player` say which events.
@Suite(.serialized) struct MediaHookTests {
    static let track = MediaEvent(
        .track, player: "org.mpris.MediaPlayer2.mpv.instance42", name: "mpv Media Player", status: .playing,
        title: "Song; $(rm -rf ~)", artist: "Someone", album: "Album", length: 3_000.4)

    @Test func runHookGetsThePlayerEvent() async throws {
        let dir = try makeTempDir()
        let script = try writeScript(dir, "record.sh", RunHookTests.recorder)
        let out = dir.appendingPathComponent("track").path
        var options = RunHookOptions(
            program: script, arguments: try [out, "{event}", "{status}", "{length:int}"].map { try ArgvTemplate(parsing: $0) })
        options.timeout = 5
        let sink = HookSink(rules: [HookRule(name: "now playing", media: [.track], action: .run(options))], logger: quietLogger)
        var paused = Self.track
        paused.kind = .paused
        sink.receive(paused)  // not matched
        sink.receive(Sample.tap(), session: "s")  // a gesture: not matched by a media rule
        sink.receive(Self.track)
        #expect(await eventually { FileManager.default.fileExists(atPath: out + ".stdin") })
        let object = try #require(jsonObject(readText(out + ".stdin")))
        #expect(object["type"] as? String == "media" && object["event"] as? String == "track")
        #expect(object["title"] as? String == "Song; $(rm -rf ~)" && object["artist"] as? String == "Someone")
        #expect(object["player"] as? String == "org.mpris.MediaPlayer2.mpv.instance42")
        #expect(object["length"] as? Double == 3000 && object["time"] is String)
        #expect(readLines(out + ".argv") == ["track", "playing", "3000"])
        let env = readLines(out + ".env")
        #expect(env.contains("GESTUREPAD_MEDIA=track") && env.contains("GESTUREPAD_TITLE=Song; $(rm -rf ~)"))
        #expect(env.contains("GESTUREPAD_PLAYER_NAME=mpv Media Player") && env.contains("GESTUREPAD_LENGTH=3000"))
        #expect(!env.contains { $0.hasPrefix("GESTUREPAD_SESSION=") })
        #expect(sink.statistics[0].started == 1)
        await closeOffPool(sink)
    }

    /// `player:` names a player by its name or by its bus name's part after the MPRIS prefix.
    @Test func playerFilter() {
        var rule = HookRule(name: "r", media: [.track, .stopped], action: .pipe(PipeHookOptions(program: "cat", arguments: [])))
        #expect(rule.matches(Self.track))
        rule.player = "mpv"
        #expect(rule.matches(Self.track))
        rule.player = "MPV MEDIA PLAYER"
        #expect(rule.matches(Self.track))
        rule.player = "mpv.instance42"
        #expect(rule.matches(Self.track))
        rule.player = "spotify"
        #expect(!rule.matches(Self.track))
        rule.player = nil
        var appeared = Self.track
        appeared.kind = .appeared
        #expect(!rule.matches(appeared))
        #expect(!rule.matches(Sample.tap(), session: "s"))
    }
}
