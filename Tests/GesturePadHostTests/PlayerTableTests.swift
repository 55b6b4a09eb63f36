import Foundation
import GestureProtocol
import Testing

@testable import GesturePadHost

/// The MPRIS players as the media thread keeps them: which one is followed, what its
/// properties make of a snapshot, and the position carried across state changes.
struct PlayerTableTests {
    static func properties(status: String, title: String, position: Double = 0) -> [String: DBusValue] {
        [
            "PlaybackStatus": .string(status), "Rate": .double(1), "Volume": .double(0.8), "CanSeek": .bool(true),
            "CanGoNext": .bool(true), "CanGoPrevious": .bool(false), "Position": .int64(Int64(position * 1_000)),
            "Metadata": .vardict([
                DBusEntry("xesam:title", .string(title)), DBusEntry("xesam:artist", .stringArray(["A", "B"])),
                DBusEntry("xesam:album", .string("Fixtures")), DBusEntry("mpris:length", .int64(60_000_000)),
                DBusEntry("mpris:trackid", .objectPath("/track/1")),
            ]),
        ]
    }

    @Test func theSnapshotReadsThePlayersProperties() {
        var table = PlayerTable()
        #expect(table.snapshot(art: nil).unavailable == .noPlayer)
        table.found(
            "org.mpris.MediaPlayer2.mpv", owner: ":1.5", identity: "mpv",
            properties: Self.properties(status: "Playing", title: "One", position: 2_000), at: 100)
        let snapshot = table.snapshot(art: nil)
        #expect(snapshot.player == "org.mpris.MediaPlayer2.mpv" && snapshot.players.map(\.name) == ["mpv"])
        #expect(snapshot.status == .playing && snapshot.title == "One" && snapshot.artist == "A, B")
        #expect(snapshot.length == 60_000 && snapshot.position == 2_000 && snapshot.positionAt == 100)
        #expect(snapshot.volume == 0.8 && snapshot.canSeek && snapshot.canNext && !snapshot.canPrevious)
        #expect(table.followedTrack == "/track/1" && table.name(ownedBy: ":1.5") == "org.mpris.MediaPlayer2.mpv")
    }

    @Test func theFollowedPlayerIsTheChosenElseThePlayingOne() {
        var table = PlayerTable()
        table.found("org.mpris.MediaPlayer2.a", owner: ":1.1", identity: "A", properties: Self.properties(status: "Paused", title: "a"), at: 0)
        table.found("org.mpris.MediaPlayer2.b", owner: ":1.2", identity: nil, properties: Self.properties(status: "Stopped", title: "b"), at: 0)
        #expect(table.followed?.name == "org.mpris.MediaPlayer2.a")  // the first to appear
        #expect(table.snapshot(art: nil).players.map(\.name) == ["A", "b"])  // no identity: the bus name's end
        table.changed("org.mpris.MediaPlayer2.b", ["PlaybackStatus": .string("Playing")], invalidated: [], at: 10)
        #expect(table.followed?.name == "org.mpris.MediaPlayer2.b")
        table.choose("org.mpris.MediaPlayer2.a")
        #expect(table.followed?.name == "org.mpris.MediaPlayer2.a")
        table.lost("org.mpris.MediaPlayer2.a")
        #expect(table.followed?.name == "org.mpris.MediaPlayer2.b" && table.snapshot(art: nil).players.count == 1)
        table.choose("org.mpris.MediaPlayer2.none")
        #expect(table.followed?.name == "org.mpris.MediaPlayer2.b")
    }

    @Test func pausingKeepsThePositionReachedAndSeekedMovesIt() {
        var table = PlayerTable()
        table.found(
            "org.mpris.MediaPlayer2.a", owner: ":1.1", identity: "A",
            properties: Self.properties(status: "Playing", title: "a", position: 1_000), at: 0)
        table.changed("org.mpris.MediaPlayer2.a", ["PlaybackStatus": .string("Paused")], invalidated: [], at: 2_500)
        var snapshot = table.snapshot(art: nil)
        #expect(snapshot.status == .paused && snapshot.position == 3_500 && snapshot.position(at: 9_000) == 3_500)
        table.moved("org.mpris.MediaPlayer2.a", toMicroseconds: 30_000_000, at: 3_000)
        snapshot = table.snapshot(art: nil)
        #expect(snapshot.position == 30_000 && snapshot.positionAt == 3_000)
        table.changed("org.mpris.MediaPlayer2.a", ["Metadata": .vardict([])], invalidated: ["Volume"], at: 3_100)
        #expect(table.snapshot(art: nil).title == nil && table.snapshot(art: nil).volume == nil)
    }

    @Test func coversAreReadOnlyFromImagesOfThisComputer() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]
        #expect(MediaArt.imageType(png) == "image/png" && MediaArt.imageType(Array("hello".utf8)) == nil)
        #expect(MediaArt.read("https://example.com/cover.png") == nil)
        #expect(MediaArt.read("file:///etc/passwd") == nil)  // not an image
        let path = "/tmp/gesturepad-cover-\(UInt32.random(in: 0...UInt32.max)).png"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(png)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let art = try #require(MediaArt.read("file://" + path))
        #expect(art.dataURL == "data:image/png;base64,iVBORw0KGgoBAgM=" && art.key == MediaArt.digest(png))
        let inline = try #require(MediaArt.read("data:image/png;base64,AAAA"))
        #expect(inline.dataURL == "data:image/png;base64,AAAA")
    }
}
