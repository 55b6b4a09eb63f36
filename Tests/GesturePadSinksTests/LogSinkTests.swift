import Foundation
import GestureEngine
import Testing

@testable import GesturePadSinks

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct LogSinkTests {
    /// Every event reaches the JSON log as one line: the gesture message plus an ISO-8601 time.
    @Test func jsonLogHoldsEveryEvent() async throws {
        let dir = try makeTempDir()
        let path = dir.appendingPathComponent("events.jsonl").path
        let sink = try JSONLogSink(path: path, logger: quietLogger)
        var events: [GestureEvent] = []
        for round in 0..<50 {
            for var event in Sample.everyKind {
                event.t += Double(round) * 1000
                events.append(event)
            }
        }
        for event in events { sink.receive(event, session: "s-1") }
        sink.close()
        let lines = readLines(path)
        #expect(lines.count == events.count)
        for (line, event) in zip(lines, events) {
            let object = try #require(jsonObject(line))
            #expect(object["gesture"] as? String == event.gesture.name)
            #expect(object["t"] as? Double == event.t)
            #expect(object["session"] as? String == "s-1")
            #expect((object["time"] as? String)?.hasSuffix("Z") == true)
            #expect(
                line
                    == GestureJSON.string(event, session: "s-1", time: WallTime(epochMilliseconds: 0))
                    .replacingOccurrences(of: "1970-01-01T00:00:00.000Z", with: object["time"] as? String ?? ""))
        }
    }

    /// Lines are written as events arrive (tail -f sees them before close).
    @Test func jsonLogIsFlushedPerLine() async throws {
        let dir = try makeTempDir()
        let path = dir.appendingPathComponent("live.jsonl").path
        let sink = try JSONLogSink(path: path, logger: quietLogger)
        sink.receive(Sample.tap(t: 1), session: "s")
        #expect(await eventually { readLines(path).count == 1 })
        sink.receive(Sample.tap(t: 2), session: "s")
        #expect(await eventually { readLines(path).count == 2 })
    }

    /// The log is appended to, never truncated.
    @Test func jsonLogAppends() async throws {
        let dir = try makeTempDir()
        let path = dir.appendingPathComponent("append.jsonl").path
        try "existing\n".write(toFile: path, atomically: true, encoding: .utf8)
        let sink = try JSONLogSink(path: path, logger: quietLogger)
        sink.receive(Sample.tap(), session: "s")
        sink.close()
        let lines = readLines(path)
        #expect(lines.count == 2 && lines[0] == "existing")
    }

    /// Rotation: rename the file, reopen, and every event is in the old file or the new one.
    @Test func jsonLogSurvivesRotation() async throws {
        let dir = try makeTempDir()
        let path = dir.appendingPathComponent("rot.jsonl").path
        let rotated = path + ".1"
        let sink = try JSONLogSink(path: path, logger: quietLogger)
        for i in 0..<500 { sink.receive(Sample.tap(t: Double(i)), session: "s") }
        try FileManager.default.moveItem(atPath: path, toPath: rotated)
        sink.reopen()
        for i in 500..<1000 { sink.receive(Sample.tap(t: Double(i)), session: "s") }
        sink.close()
        let old = readLines(rotated).compactMap { jsonObject($0)?["t"] as? Double }
        let new = readLines(path).compactMap { jsonObject($0)?["t"] as? Double }
        #expect(!new.isEmpty)
        #expect((old + new) == (0..<1000).map(Double.init))
        #expect(new.allSatisfy { $0 >= 500 })
    }

    /// An unopenable path is refused at construction, not silently ignored.
    @Test func jsonLogBadPath() {
        #expect(throws: (any Error).self) { try JSONLogSink(path: "/nonexistent-dir/x.jsonl", logger: quietLogger) }
    }

    /// Terminal lines show time, session, gesture, phase, position and key fields.
    @Test func terminalLineFormat() {
        var out: [UInt8] = []
        let time = WallTime(epochMilliseconds: 1_795_326_524_123)
        TerminalLineFormat(color: false).append(.event(Sample.swipe(.left), session: "s7", time: time), into: &out)
        let line = String(decoding: out, as: UTF8.self)
        #expect(line.hasPrefix("05:48:44.123  s7  swipe"))
        #expect(line.contains("ended"))
        #expect(line.contains("x=200 y=100 p=3 direction=left distance=180 velocity=950.5 duration=140"))
        #expect(line.hasSuffix("\n") && !line.contains("\u{1B}"))
        out.removeAll()
        TerminalLineFormat(color: true).append(.event(Sample.drag(.began, t: 1), session: "s\u{1B}[31m", time: time), into: &out)
        let colored = String(decoding: out, as: UTF8.self)
        #expect(colored.contains("\u{1B}[1;32m"))
        #expect(colored.contains("s?[31m"))  // the client's escape sequence is defused
        #expect(!colored.contains("ddx="))
    }

    /// The terminal sink: by default the session lines and one line per contact; verbose adds
    /// every event with its phase (`changed` ones included).
    @Test func terminalSinkVerbosity() async throws {
        let dir = try makeTempDir()
        for verbose in [false, true] {
            let path = dir.appendingPathComponent("term-\(verbose).txt").path
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            #expect(fd >= 0)
            let sink = TerminalLogSink(verbose: verbose, color: false, logger: quietLogger, descriptor: fd)
            sink.session("s1", open: true)
            sink.receive(Sample.drag(.began, t: 1), session: "s1")
            sink.receive(Sample.drag(.changed, t: 2), session: "s1")
            sink.receive(Sample.drag(.ended, t: 3), session: "s1")
            sink.receive(Sample.end(t: 3), session: "s1")
            sink.note(.command(.button(.middle, .click)), session: "s1")
            sink.session("s1", open: false)
            sink.close()
            close(fd)
            let lines = readLines(path).map { String($0.dropFirst(14)) }  // after the clock
            let activity = ["s1  pointer → 14 px", "s1  middle click", "s1  session closed"]
            #expect(lines.first == "s1  session opened")
            #expect(Array(lines.suffix(3)) == activity)
            #expect(lines.count == (verbose ? 8 : 4))
            #expect(lines.contains { $0.contains("changed") } == verbose)
        }
    }

    /// An activity line: clock, session, the words; bold, commands green, releases yellow.
    @Test func activityLineFormat() {
        var out: [UInt8] = []
        let time = WallTime(epochMilliseconds: 1_795_326_524_123)
        let line = ActivityLine(session: "3", time: time, kind: .release, text: "released the left button")
        TerminalLineFormat(color: false).append(line, into: &out)
        #expect(String(decoding: out, as: UTF8.self) == "05:48:44.123  3  released the left button\n")
        out.removeAll()
        TerminalLineFormat(color: true).append(line, into: &out)
        #expect(String(decoding: out, as: UTF8.self) == "05:48:44.123  3  \u{1B}[1;33mreleased the left button\u{1B}[0m\n")
    }
}
