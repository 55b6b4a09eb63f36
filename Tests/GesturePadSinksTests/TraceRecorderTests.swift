import Foundation
import GestureProtocol
import Testing

@testable import GesturePadSinks

@Suite struct TraceRecorderTests {
    static let hello = #"{"type":"hello","protocol":1,"role":"touchpad","width":390,"height":844}"#
    static func down(_ t: Double) -> String { #"{"type":"down","id":1,"x":10,"y":10,"t":\#(t),"pointerType":"touch"}"# }
    static func up(_ t: Double) -> String { #"{"type":"up","id":1,"x":10,"y":10,"t":\#(t),"pointerType":"touch"}"# }

    func files(_ dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
    }

    func replay(_ lines: [String]) -> (stdout: String, stderr: String) {
        var host = ReplayHost()
        var out: [UInt8] = []
        var err: [UInt8] = []
        for (i, line) in lines.enumerated() { host.feed(line: Array(line.utf8).span, number: i + 1, stdout: &out, stderr: &err) }
        host.finish(stdout: &out)
        return (String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    /// One private file per session (folder 0700, files 0600), named by start time and session,
    /// holding the frames in order, `hello` first; interleaved sessions do not mix; the
    /// recording replays like the frames themselves.
    @Test func oneFilePerSession() throws {
        let dir = try makeTempDir().appendingPathComponent("recordings").path
        let recorder = try TraceRecorder(directory: dir, logger: quietLogger)
        recorder.began("1", with: Array(Self.hello.utf8))
        recorder.began("2", with: Array(Self.hello.utf8))
        recorder.record("1", Array(Self.down(100).utf8))
        recorder.record("2", Array(Self.down(500).utf8))
        recorder.record("1", Array(Self.up(150).utf8))
        recorder.record("3", Array(Self.up(150).utf8))  // no such session: ignored
        recorder.ended("1")
        recorder.record("2", Array("[\n\(Self.up(560))\n]".utf8))
        recorder.close()
        let names = files(dir)
        #expect(names.count == 2)
        #expect(names.allSatisfy { $0.wholeMatch(of: /\d{8}T\d{6}\.\d{3}Z-session-[12]\.jsonl/) != nil })
        let first = try #require(names.first { $0.hasSuffix("-session-1.jsonl") })
        let second = try #require(names.first { $0.hasSuffix("-session-2.jsonl") })
        #expect(readLines(dir + "/" + first) == [Self.hello, Self.down(100), Self.up(150)])
        #expect(readLines(dir + "/" + second) == [Self.hello, Self.down(500), "[\t\(Self.up(560))\t]"])
        let folder = try FileManager.default.attributesOfItem(atPath: dir)
        #expect((folder[.posixPermissions] as? Int) == 0o700)
        let file = try FileManager.default.attributesOfItem(atPath: dir + "/" + first)
        #expect((file[.posixPermissions] as? Int) == 0o600)
        let recorded = replay(readLines(dir + "/" + second))
        #expect(recorded.stdout == replay([Self.hello, Self.down(500), Self.up(560)]).stdout)
        #expect(recorded.stdout.contains(#""gesture":"tap""#) && recorded.stderr.isEmpty)
    }

    /// A file stops at its bound with a note line; the frames before it still replay, and the
    /// replay says the note.
    @Test func truncatedWithANote() throws {
        let dir = try makeTempDir().path
        let recorder = try TraceRecorder(directory: dir, maxBytes: 400, logger: quietLogger)
        recorder.began("7", with: Array(Self.hello.utf8))
        for i in 0..<20 { recorder.record("7", Array(Self.down(Double(100 + i)).utf8)) }
        recorder.ended("7")
        recorder.close()
        let name = try #require(files(dir).first)
        let lines = readLines(dir + "/" + name)
        let note = try #require(lines.last)
        #expect(TraceFormat.noteText(Array(note.utf8).span)?.contains("truncated") == true)
        #expect(lines.first == Self.hello && lines.count > 2)
        let body = lines.dropLast().joined(separator: "\n").utf8.count + 1
        #expect(body <= 400)
        #expect(replay(lines).stderr.contains("note: recording truncated"))
    }

    /// Frames lost to a full queue stop every open recording with a note (a recording with a
    /// hole would replay differently); sessions begun later record normally.
    @Test func lostFramesStopTheRecording() throws {
        let dir = try makeTempDir().path
        var writer = TraceWriter(directory: dir, maxBytes: 1 << 20, logger: quietLogger)
        writer.consume([.began(session: "1", time: WallTime(epochMilliseconds: 0), frame: Array(Self.hello.utf8))], dropped: 0)
        writer.consume([.frame(session: "1", frame: Array(Self.down(1).utf8))], dropped: 5)
        writer.consume([.frame(session: "1", frame: Array(Self.up(2).utf8))], dropped: 0)
        writer.consume([.began(session: "2", time: WallTime(epochMilliseconds: 1), frame: Array(Self.hello.utf8))], dropped: 0)
        writer.finish()
        #expect(files(dir) == ["19700101T000000.000Z-session-1.jsonl", "19700101T000000.001Z-session-2.jsonl"])
        let lines = readLines(dir + "/19700101T000000.000Z-session-1.jsonl")
        #expect(lines.count == 3 && lines[1] == Self.down(1))
        #expect(TraceFormat.noteText(Array(lines[2].utf8).span)?.contains("5 frames were lost") == true)
        #expect(readLines(dir + "/19700101T000000.001Z-session-2.jsonl") == [Self.hello])
    }

    /// An existing file is never overwritten: a second recording with the same name gets a suffix.
    @Test func neverOverwrites() throws {
        let dir = try makeTempDir().path
        var writer = TraceWriter(directory: dir, maxBytes: 1 << 20, logger: quietLogger)
        let start = WallTime(epochMilliseconds: 0)
        try "keep".write(toFile: dir + "/19700101T000000.000Z-session-1.jsonl", atomically: true, encoding: .utf8)
        writer.consume([.began(session: "1", time: start, frame: Array(Self.hello.utf8))], dropped: 0)
        writer.finish()
        #expect(readText(dir + "/19700101T000000.000Z-session-1.jsonl") == "keep")
        #expect(readLines(dir + "/19700101T000000.000Z-session-1-2.jsonl") == [Self.hello])
    }

    /// A folder that cannot be made is refused up front, with the reason.
    @Test func unusableFolder() throws {
        let dir = try makeTempDir()
        let blocker = dir.appendingPathComponent("file").path
        try "x".write(toFile: blocker, atomically: true, encoding: .utf8)
        #expect(throws: RecordError.self) { try TraceRecorder(directory: blocker + "/sub", logger: quietLogger) }
    }

    /// Recording never waits for the disk: with the writer stalled (held on a gate, as a disk
    /// that does not answer holds `write(2)`), 2,000 frames are all handed over and nothing is
    /// written meanwhile — the 64 that fit are queued, the rest dropped rather than waited for;
    /// once the writer goes on, the recording says how many were lost and stops there. A
    /// recorder that wrote on the caller's thread would have written the file before the gate
    /// opened (the writer gives up waiting after 10 s) and lost nothing.
    @Test func recordingDoesNotWaitForTheDisk() throws {
        let dir = try makeTempDir().path
        let gate = DispatchSemaphore(value: 0)
        let recorder = try TraceRecorder(directory: dir, maxBytes: 1 << 20, logger: quietLogger, capacity: 64) {
            StalledWriter(writer: $0, gate: gate)
        }
        recorder.began("1", with: Array(Self.hello.utf8))
        for i in 0..<2000 { recorder.record("1", Array(Self.down(Double(i)).utf8)) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty, "written before the disk answered")
        gate.signal()
        recorder.close()
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: dir).first)
        let lines = readLines(dir + "/" + name)
        #expect(lines.first == Self.hello)
        let note = try #require(lines.last.flatMap { TraceFormat.noteText(Array($0.utf8).span) })
        #expect(note.contains("frames were lost"), "\(note)")
        #expect(lines.count < 2000)
    }
}

/// A trace writer whose first batch waits for `gate` (at most 10 s): a disk that stalls.
private struct StalledWriter: WorkerConsumer {
    var writer: TraceWriter
    let gate: DispatchSemaphore
    var waited = false

    mutating func consume(_ items: [TraceItem], dropped: Int) {
        if !waited {
            waited = true
            _ = gate.wait(timeout: .now() + 10)
        }
        writer.consume(items, dropped: dropped)
    }

    mutating func reopen() { writer.reopen() }
    mutating func finish() { writer.finish() }
}
