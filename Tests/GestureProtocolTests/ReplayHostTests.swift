import Foundation
import GestureEngine
import Testing

@testable import GestureProtocol

/// Runs lines through a ReplayHost; returns stdout lines and stderr lines.
func replay(_ lines: [String], host: inout ReplayHost, finish: Bool = true) -> (out: [String], err: [String]) {
    var stdout: [UInt8] = []
    var stderr: [UInt8] = []
    for (i, line) in lines.enumerated() {
        let bytes = Array(line.utf8)
        host.feed(line: bytes.span, number: i + 1, stdout: &stdout, stderr: &stderr)
    }
    if finish { host.finish(stdout: &stdout) }
    let split = { (bytes: [UInt8]) in
        String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }
    return (split(stdout), split(stderr))
}

@Suite("ReplayHost")
struct ReplayHostTests {
    /// Malformed lines print `line N: ` and the error message on stderr, and the replay goes on.
    @Test func errorsGoToStderr() {
        var host = ReplayHost()
        let (_, err) = replay(
            [
                TestSupport.down(1, t: 5), TestSupport.hello, "", "not json",
                #"[{"type":"ping","t":1},{"type":"nope"}]"#,
                #"{"type":"move","id":1,"x":1e999,"y":0,"t":1,"pointerType":"touch"}"#,
            ], host: &host)
        #expect(err.count == 4)
        #expect(err[0].hasPrefix("line 1: "))
        #expect(err[1].hasPrefix("line 4: "))
        #expect(err[2].hasPrefix("line 5: "))
        #expect(err[3].hasPrefix("line 6: "))
        let codes = err.map { line in
            TestSupport.object(line.drop { $0 != "{" }.utf8)?["code"] as? String ?? "?"
        }
        #expect(codes == ["hello_required", "bad_json", "unknown_type", "bad_field"])
        #expect(TestSupport.object(err[2].drop { $0 != "{" }.utf8)?["index"] as? Int == 1)
    }

    /// Replay and the server's session refuse a pointer beyond the limit with the same error.
    @Test func tooManyPointersSameAsTheSession() throws {
        var limits = ProtocolLimits()
        limits.maxPointers = 2
        let downs = (1...3).map { TestSupport.down($0, t: Double($0)) }
        var host = ReplayHost(maxPointers: 2)
        let (_, err) = replay([TestSupport.hello] + downs, host: &host)
        #expect(err.count == 1)
        let replayed = try #require(TestSupport.object(err[0].drop { $0 != "{" }.utf8))
        var session = ProtocolSessionLimitTests.opened(limits)
        var output = SessionOutput()
        for down in downs { session.receive(down, at: 10, into: &output) }
        let refusals = TestSupport.frames(output).map(\.1).filter { $0["type"] as? String == "error" }
        #expect(refusals.count == 1)
        #expect(replayed["code"] as? String == "too_many_pointers")
        #expect(replayed["message"] as? String == "down: pointer 3 ignored: at most 2 pointers may be down")
        #expect(refusals.first?["message"] as? String == replayed["message"] as? String)
    }

    /// The virtual clock follows accepted messages' t (ping included); refused ones leave it.
    @Test func virtualClock() {
        var host = ReplayHost()
        _ = replay([#"{"type":"ping","t":50}"#, TestSupport.hello], host: &host, finish: false)
        #expect(host.clock == nil)
        _ = replay([#"{"type":"ping","t":100}"#], host: &host, finish: false)
        #expect(host.clock == 100)
        _ = replay(
            [#"{"type":"ping","t":900,"x":"#, #"{"type":"move","id":1,"x":"a","y":0,"t":800,"pointerType":"touch"}"#],
            host: &host, finish: false)
        #expect(host.clock == 100)
        _ = replay([#"{"type":"leave","id":1,"t":250}"#, #"{"type":"ping","t":200}"#], host: &host, finish: false)
        #expect(host.clock == 250)
    }

    /// An observer replay prints nothing: no gestures, no refusals of its pointer messages;
    /// only truly malformed lines are reported.
    @Test func observerPrintsNothing() {
        var host = ReplayHost()
        let (out, err) = replay(
            [
                #"{"type":"hello","protocol":1,"role":"observer"}"#, #"{"type":"ping","t":1}"#, TestSupport.down(1, t: 2),
                TestSupport.up(1, t: 50), "{oops",
            ],
            host: &host)
        #expect(out.isEmpty)
        #expect(err.count == 1)
        #expect(err.first?.hasPrefix("line 5: ") == true)
    }

    /// Gesture lines are gesture messages of session "replay", in time order, and match the
    /// engine fed the same inputs (timers fired before each message, and up to last t + 1000).
    @Test(.enabled(if: EngineProbe.isImplemented, "needs the real GestureEngine"))
    func gestureLines() {
        var host = ReplayHost()
        let (out, err) = replay(
            [TestSupport.hello, TestSupport.down(1, t: 1000), TestSupport.up(1, t: 1060)], host: &host)
        #expect(err.isEmpty)
        var engine = GestureEngine(width: 400, height: 800)
        var expected: [GestureEvent] = []
        _ = engine.process(.down(PointerSample(id: 1, x: 100, y: 100, t: 1000)), into: &expected)
        _ = engine.process(.up(PointerSample(id: 1, x: 100, y: 100, t: 1060)), into: &expected)
        engine.flush(into: &expected)
        engine.advance(to: 2060, into: &expected)
        let objects = out.map { TestSupport.object($0.utf8) ?? [:] }
        #expect(objects.map { $0["gesture"] as? String ?? "?" } == expected.map(\.gesture.name))
        #expect(objects.allSatisfy { $0["type"] as? String == "gesture" && $0["session"] as? String == "replay" })
        #expect(objects.contains { $0["gesture"] as? String == "singleTapConfirmed" })
    }

    /// Same-t moves on consecutive lines are one step (the host does not flush between lines).
    @Test(.enabled(if: EngineProbe.isImplemented, "needs the real GestureEngine"))
    func sameTimeMovesAreOneStep() {
        var host = ReplayHost()
        let (out, _) = replay(
            [
                TestSupport.hello, TestSupport.down(1, t: 1000, x: 100), TestSupport.down(2, t: 1000, x: 200),
                TestSupport.move(1, t: 1016, x: 60), TestSupport.move(2, t: 1016, x: 240),
                TestSupport.up(1, t: 1030, x: 60), TestSupport.up(2, t: 1030, x: 240),
            ], host: &host)
        var engine = GestureEngine(width: 400, height: 800)
        var expected: [GestureEvent] = []
        for input: PointerInput in [
            .down(PointerSample(id: 1, x: 100, y: 100, t: 1000)), .down(PointerSample(id: 2, x: 200, y: 100, t: 1000)),
            .move(PointerSample(id: 1, x: 60, y: 100, t: 1016)), .move(PointerSample(id: 2, x: 240, y: 100, t: 1016)),
            .up(PointerSample(id: 1, x: 60, y: 100, t: 1030)), .up(PointerSample(id: 2, x: 240, y: 100, t: 1030)),
        ] {
            _ = engine.process(input, into: &expected)
        }
        engine.flush(into: &expected)
        engine.advance(to: 2030, into: &expected)
        #expect(out.count == expected.count)
        #expect(out.filter { $0.contains(#""gesture":"pinch""#) && $0.contains(#""phase":"began""#) }.count == 1)
    }

    /// A byte order mark opening the file is skipped, so its hello still counts.
    @Test func byteOrderMark() {
        var host = ReplayHost()
        let (_, err) = replay(["\u{FEFF}" + TestSupport.hello, #"{"type":"ping","t":5}"#], host: &host)
        #expect(err.isEmpty)
        #expect(host.clock == 5)
    }
}
