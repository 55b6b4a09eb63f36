import Foundation
import GestureControl
import GestureEngine
import GesturePadSettings
import GestureProtocol
import Testing

@testable import GesturePadSinks

#if canImport(Glibc)
    import Glibc
#endif

func pipeRule(_ gestures: [GestureKind], _ program: String, _ args: [String] = [], queue: Int = 256) -> HookRule {
    var options = PipeHookOptions(program: program, arguments: args)
    options.queueLimit = queue
    return HookRule(name: "pipe-test", gestures: gestures, action: .pipe(options))
}

@Suite(.serialized) struct PipeHookTests {
    /// A pipe hook receives matching events as JSON lines, in order, from one process.
    @Test func receivesEventsInOrder() async throws {
        let dir = try makeTempDir()
        let out = dir.appendingPathComponent("out").path
        let script = try writeScript(
            dir, "pipe.sh", "#!/bin/sh\nwhile IFS= read -r line; do printf '%s\\n' \"$line\" >> \(out); done\n")
        let sink = HookSink(rules: [pipeRule([.tap], script, queue: 1_000)], logger: quietLogger)
        for i in 0..<300 {
            sink.receive(Sample.tap(t: Double(i)), session: "s")
            sink.receive(Sample.swipe(.up), session: "s")  // not matched
        }
        #expect(await eventually { readLines(out).count == 300 })
        let ts = readLines(out).compactMap { jsonObject($0)?["t"] as? Double }
        #expect(ts == (0..<300).map(Double.init))
        #expect(sink.statistics[0].started == 1)
        #expect(sink.statistics[0].dropped == 0)
        await closeOffPool(sink)
    }

    /// A pipe process that dies is restarted and gets the events that follow.
    @Test func restartedAfterDeath() async throws {
        let dir = try makeTempDir()
        let out = dir.appendingPathComponent("out").path
        let pids = dir.appendingPathComponent("pids").path
        let script = try writeScript(
            dir, "pipe.sh",
            """
            #!/bin/sh
            echo $$ >> \(pids)
            while IFS= read -r line; do printf '%s\\n' "$line" >> \(out); done
            """)
        let sink = HookSink(rules: [pipeRule([.tap], script)], logger: quietLogger)
        sink.receive(Sample.tap(t: 1), session: "s")
        #expect(await eventually { readLines(out).count == 1 })
        let first = try #require(readLines(pids).first.flatMap { Int32($0) })
        #expect(sink.statistics[0].pid == first)
        kill(first, SIGKILL)
        #expect(await eventually { readLines(pids).count == 2 }, "restarted")
        #expect(sink.statistics[0].started == 2)
        sink.receive(Sample.tap(t: 2), session: "s")
        #expect(await eventually { readLines(out).count == 2 })
        #expect(jsonObject(readLines(out)[1])?["t"] as? Double == 2)
        await closeOffPool(sink)
    }

    /// A pipe that closes its stdout but keeps reading is not mistaken for a dead one.
    @Test func closedStdoutIsNotDeath() async throws {
        let dir = try makeTempDir()
        let out = dir.appendingPathComponent("out").path
        let pids = dir.appendingPathComponent("pids").path
        let script = try writeScript(
            dir, "quiet.sh",
            """
            #!/bin/sh
            exec >/dev/null
            echo $$ >> \(pids)
            while IFS= read -r line; do printf '%s\\n' "$line" >> \(out); done
            """)
        let sink = HookSink(rules: [pipeRule([.tap], script)], logger: quietLogger)
        // The pid is written after stdout is closed: from here on, the process has no stdout.
        #expect(await eventually { readLines(pids).count == 1 })
        for i in 0..<5 { sink.receive(Sample.tap(t: Double(i)), session: "s") }
        #expect(await eventually { readLines(out).count == 5 })
        #expect(readLines(pids).count == 1)
        #expect(sink.statistics[0].started == 1)
        await closeOffPool(sink)
    }

    /// A script held open for writing cannot start (text file busy): it is tried again for
    /// 310 ms, as a run hook's is, before the start counts as failed; written, it runs.
    @Test func busyScriptIsRetriedBeforeItFails() async throws {
        let dir = try makeTempDir()
        let out = dir.appendingPathComponent("out").path
        let script = try writeScript(
            dir, "busy.sh", "#!/bin/sh\nwhile IFS= read -r line; do printf '%s\\n' \"$line\" >> \(out); done\n")
        let writer = open(script, O_WRONLY)
        #expect(writer >= 0)
        let capture = LogCapture()
        let start = ContinuousClock.now
        let sink = HookSink(rules: [pipeRule([.tap], script)], logger: capture.logger)
        #expect(await eventually { capture.lines.contains { $0.contains("pipe hook could not run") } })
        // The retries' delays add up to 310 ms: the failure cannot come sooner.
        #expect(ContinuousClock.now - start >= .milliseconds(310))
        close(writer)
        sink.receive(Sample.tap(t: 1), session: "s")
        #expect(await eventually { readLines(out).count == 1 })
        #expect(sink.statistics[0].started == 2)  // the failed start, then the restart that ran
        await closeOffPool(sink)
    }

    /// A slow reader costs `changed` events (coalesced or dropped) but never blocks the caller, and `ended` still arrives.
    @Test func slowReaderNeverBlocks() async throws {
        let dir = try makeTempDir()
        let out = dir.appendingPathComponent("out").path
        let script = try writeScript(
            dir, "slow.sh",
            """
            #!/bin/sh
            while IFS= read -r line; do sleep 0.02; printf '%s\\n' "$line" >> \(out); done
            """)
        let sink = HookSink(rules: [pipeRule([.drag], script, queue: 64)], logger: quietLogger)
        sink.receive(Sample.drag(.began, t: 0), session: "s")
        var latency = SubmitLatency()
        for i in 1...20_000 {
            latency.measure { sink.receive(Sample.drag(.changed, t: Double(i), ddx: 1, ddy: 0), session: "s") }
        }
        sink.receive(Sample.drag(.ended, t: 20_001), session: "s")
        latency.expectNonBlocking()
        let stats = sink.statistics[0]
        #expect(stats.coalesced + stats.dropped > 15_000)
        // The process is started by the hook's own task, which a loaded machine may not have
        // run yet when the flood ends: one process, once it has started.
        #expect(await eventually { sink.statistics[0].started == 1 })
        #expect(sink.statistics[0].started == 1)
        // The flood drains; the gesture's end arrives.
        #expect(await eventually { readLines(out).last.flatMap(jsonObject)?["phase"] as? String == "ended" })
        // Coalescing keeps the translation: what arrived adds up to at most what was sent,
        // and merged events carry more than one event's ddx.
        let ddx = readLines(out).compactMap { line -> Double? in
            guard let o = jsonObject(line), o["phase"] as? String == "changed" else { return nil }
            return o["ddx"] as? Double
        }
        #expect(ddx.contains { $0 > 1 })
        #expect(ddx.reduce(0, +) <= 20_000)
        await closeOffPool(sink)
    }

    /// A pipe that crashes at once is restarted with backoff, and submitting stays instant.
    @Test func crashingPipeBacksOff() async throws {
        let dir = try makeTempDir()
        let pids = dir.appendingPathComponent("pids").path
        let script = try writeScript(dir, "crash.sh", "#!/bin/sh\necho $$ >> \(pids)\nexit 1\n")
        let sink = HookSink(rules: [pipeRule([.tap], script)], logger: quietLogger)
        let start = Date()
        var latency = SubmitLatency()
        for i in 0..<10_000 { latency.measure { sink.receive(Sample.tap(t: Double(i)), session: "s") } }
        latency.expectNonBlocking()
        // Backoff 0.1, 0.2, 0.4 … (exact schedule: HookPolicyTests): the third start comes
        // 0.3 s after the first at the earliest (a load can only make it later), the fifth 1.5 s after.
        #expect(await eventually { readLines(pids).count >= 3 })
        #expect(Date().timeIntervalSince(start) >= 0.3)
        #expect(await eventually { readLines(pids).count >= 5 })
        #expect(Date().timeIntervalSince(start) >= 1.5)
        await closeOffPool(sink)
    }

    /// The queue merges `changed` events of one gesture and session only when behind.
    @Test func queueCoalescing() {
        var queue = PipeQueue(limit: 4)
        func item(_ e: GestureEvent, _ s: String = "a") -> PipeQueue.Item {
            .init(payload: .gesture(e, session: s), time: .now())
        }
        queue.push(item(Sample.drag(.began, t: 0)))
        queue.push(item(Sample.drag(.changed, t: 1, ddx: 1)))
        #expect(queue.items.count == 2)
        queue.push(item(Sample.drag(.changed, t: 2, ddx: 2)))  // half full: merges
        #expect(queue.items.count == 2 && queue.coalesced == 1)
        guard case .motion(let m) = queue.items[1].event?.detail else { Issue.record("not motion"); return }
        #expect(m.ddx == 3 && queue.items[1].event?.t == 2)
        queue.push(item(Sample.drag(.changed, t: 3), "b"))  // other session: appended
        queue.push(item(Sample.drag(.ended, t: 4)))
        queue.push(item(Sample.drag(.changed, t: 5)))  // full, tail not changed: dropped
        #expect(queue.items.count == 4 && queue.dropped == 1)
        queue.push(item(Sample.tap()))  // other events use the reserve
        #expect(queue.items.count == 5)
        let track = MediaEvent(.track, player: "org.mpris.MediaPlayer2.mpv", name: "mpv", status: .playing)
        queue.push(.init(payload: .media(track), time: .now()))  // a player event too, never merged
        queue.push(.init(payload: .media(track), time: .now()))
        #expect(queue.items.count == 7 && queue.coalesced == 1)
        #expect(queue.items.last?.event == nil)
    }
}

@Suite(.serialized) struct HookShutdownTests {
    /// At close, a pipe gets every queued event and then EOF, and exits on its own.
    @Test func pipeGetsQueuedEventsThenEOF() async throws {
        let dir = try makeTempDir()
        let out = dir.appendingPathComponent("out").path
        let script = try writeScript(
            dir, "pipe.sh",
            """
            #!/bin/sh
            while IFS= read -r line; do printf '%s\\n' "$line" >> \(out); done
            echo EOF >> \(out)
            """)
        let sink = HookSink(rules: [pipeRule([.tap], script, queue: 1_000)], logger: quietLogger)
        #expect(await eventually { sink.statistics[0].pid != nil })
        for i in 0..<200 { sink.receive(Sample.tap(t: Double(i)), session: "s") }
        await closeOffPool(sink)
        let lines = readLines(out)
        #expect(lines.count == 201)
        #expect(lines.last == "EOF")
    }

    /// A pipe that ignores EOF and signals is killed with its group; close stays bounded.
    @Test func stubbornPipeIsKilledAtClose() async throws {
        let dir = try makeTempDir()
        let pids = dir.appendingPathComponent("pids").path
        let script = try writeScript(
            dir, "stubborn.sh",
            """
            #!/bin/sh
            trap '' TERM INT HUP
            sleep 60 &
            echo "$$ $!" >> \(pids)
            while true; do sleep 1; done
            """)
        let sink = HookSink(rules: [pipeRule([.tap], script)], logger: quietLogger, closeTimeout: 0.5)
        #expect(await eventually { readLines(pids).count == 1 })
        await closeOffPool(sink)
        let group = try #require(readLines(pids).first).split(separator: " ").compactMap { Int32($0) }
        #expect(group.count == 2)
        #expect(await eventually { group.allSatisfy(processIsGone) })
    }

    /// After close, events are ignored without blocking or crashing.
    @Test func eventsAfterCloseAreIgnored() async throws {
        let sink = HookSink(rules: [try runRule([.tap], "true", [])], logger: quietLogger)
        await closeOffPool(sink)
        for i in 0..<100 { sink.receive(Sample.tap(t: Double(i)), session: "s") }
        #expect(sink.statistics[0].started == 0)
    }
}
