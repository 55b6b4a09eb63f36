import Foundation
import GestureEngine
import Testing

@testable import GesturePadSinks

#if canImport(Glibc)
    import Glibc
#endif

/// The I/O shell with real processes: what hooks write reaches the log through the limiter.
/// (Waiting here is for real processes; the limiter's timing is tested on a virtual clock.)
@Suite(.serialized) struct HookOutputTests {
    private func limits(rate: Double = 20, burst: Int = 100, bytesPerSecond: Int = 1 << 20) -> HookOutputLimits {
        var limits = HookOutputLimits()
        limits.linesPerSecond = rate
        limits.burst = burst
        limits.bytesPerSecond = bytesPerSecond
        limits.byteBurst = bytesPerSecond
        return limits
    }

    private func outputLines(_ capture: LogCapture) -> [String] {
        capture.lines.filter { $0.contains("hook output ") }
    }

    /// A run hook's stdout and stderr lines are logged with their stream and the hook's name.
    @Test func runHookOutputIsLogged() async throws {
        let dir = try makeTempDir()
        let script = try writeScript(dir, "talk.sh", "#!/bin/sh\necho one\necho two >&2\nprintf 'three'\n")
        let capture = LogCapture()
        let sink = HookSink(rules: [try runRule([.tap], script, [])], logger: capture.logger)
        sink.receive(Sample.tap(), session: "s")
        #expect(await eventually { sink.statistics[0].started == 1 && sink.statistics[0].outputLogged == 2 })
        await closeOffPool(sink)
        let lines = outputLines(capture)
        #expect(lines.contains { $0.contains("hook.output=one hook.stream=stdout") && $0.contains("hook.name=test") })
        #expect(lines.contains { $0.contains("hook.output=two") && $0.contains("hook.stream=stderr") })
        // An unfinished last line is logged when the hook closes.
        #expect(lines.contains { $0.contains("hook.output=three") })
        // No suppression note ("run hook output: suppressed N lines"); the summary a loaded
        // machine may add at close (a 5 s timeout hit) lists `…suppressed=0` counters.
        #expect(!capture.lines.contains { $0.contains(": suppressed ") }, "\(capture.lines)")
    }

    /// A pipe hook running `yes`: a burst of lines, then suppression with one note at the
    /// end; the reading is paced, so the flood is held back by its own full pipe.
    @Test func pipeFloodIsLimitedAndPaced() async throws {
        let capture = LogCapture()
        let rule = pipeRule([.tap], "yes")
        let pace = 64 * 1_024
        let sink = HookSink(
            rules: [rule], logger: capture.logger, outputLimits: limits(rate: 5, burst: 5, bytesPerSecond: pace))
        let start = Date()
        // The byte bucket (64 KiB = 32,768 lines) and then the pace: well past the bucket, the
        // reading has been paced for a while.
        #expect(await eventually { sink.statistics[0].outputLogged + sink.statistics[0].outputSuppressed > 40_000 })
        let stats = sink.statistics[0]
        let elapsed = Date().timeIntervalSince(start)
        // "y\n" is 2 bytes a line: what was read stays within the byte bucket plus the pace.
        let bound = Int((Double(pace) * (elapsed + 1) + 2 * 65_536) / 2)
        #expect(stats.outputLogged + stats.outputSuppressed <= bound, "\(stats) in \(elapsed) s")
        #expect(stats.outputLogged <= 5 + Int(5 * elapsed) + 1)
        await closeOffPool(sink)
        // Notes are counted after the close, which takes time of its own on a loaded machine.
        let total = Date().timeIntervalSince(start)
        let notes = capture.lines.filter { $0.contains("suppressed") }
        #expect(notes.count <= Int(total / 1) + 2, "\(notes) in \(total) s")
        #expect(notes.last?.contains("pipe hook output: suppressed") == true)
        #expect(outputLines(capture).allSatisfy { $0.contains("hook.output=y ") || $0.hasSuffix("hook.output=y") })
    }

    /// When a flood stops, its note comes at the end of the pause, without another line to
    /// carry it, and output is logged again afterwards.
    @Test func noteComesWhenTheFloodStops() async throws {
        let dir = try makeTempDir()
        let go = dir.appendingPathComponent("go").path
        let script = try writeScript(
            dir, "burst.sh",
            """
            #!/bin/sh
            i=0; while [ $i -lt 50 ]; do echo "line $i"; i=$((i+1)); done
            while [ ! -e \(go) ]; do sleep 0.05; done
            echo after
            exec cat >/dev/null
            """)
        let capture = LogCapture()
        let sink = HookSink(rules: [pipeRule([.tap], script)], logger: capture.logger, outputLimits: limits(rate: 10, burst: 5))
        #expect(await eventually { capture.lines.contains { $0.contains("suppressed 45 lines") } })
        #expect(outputLines(capture).count == 5)
        #expect(FileManager.default.createFile(atPath: go, contents: nil))
        #expect(await eventually { capture.lines.contains { $0.contains("hook.output=after") } })
        await closeOffPool(sink)
        #expect(capture.lines.filter { $0.contains("suppressed") }.count == 1)
    }

    /// A `pipe` process's unfinished last line ends with it: logged when it exits, never
    /// glued to what its restarted successor writes.
    @Test func unfinishedLineEndsWithThePipeProcess() async throws {
        let dir = try makeTempDir()
        let script = try writeScript(dir, "partial.sh", "#!/bin/sh\nprintf 'partial %s' $$\nexit 1\n")
        let capture = LogCapture()
        let sink = HookSink(rules: [pipeRule([.tap], script)], logger: capture.logger)
        #expect(await eventually { outputLines(capture).count >= 2 })
        await closeOffPool(sink)
        let lines = outputLines(capture)
        #expect(lines.allSatisfy { $0.components(separatedBy: "partial").count == 2 }, "\(lines)")
    }

    /// A process the hook leaves running keeps its output: the pipes outlive the hook's
    /// process, and the run itself ends when its process exits (no timeout).
    @Test func daemonOutputOutlivesTheRun() async throws {
        let dir = try makeTempDir()
        let script = try writeScript(dir, "daemon.sh", "#!/bin/sh\n(sleep 0.5; echo late) &\necho early\n")
        let capture = LogCapture()
        let sink = HookSink(rules: [try runRule([.tap], script, [], timeout: 10)], logger: capture.logger)
        sink.receive(Sample.tap(), session: "s")
        #expect(await eventually { capture.lines.contains { $0.contains("hook.output=early") } })
        #expect(await eventually { capture.lines.contains { $0.contains("hook.output=late") } })
        #expect(sink.statistics[0].timedOut == 0 && sink.statistics[0].failed == 0)
        await closeOffPool(sink)
    }

    /// A run hook flooding stdout and stderr (one of them an endless line) until its timeout:
    /// killed at the timeout with its group, the server's memory untouched by the endless line.
    @Test func runFloodUntilTimeout() async throws {
        let dir = try makeTempDir()
        let pids = dir.appendingPathComponent("pids").path
        let script = try writeScript(
            dir, "flood.sh",
            """
            #!/bin/sh
            echo $$ > \(pids)
            yes out &
            echo $! >> \(pids)
            tr '\\0' x < /dev/zero >&2 &
            echo $! >> \(pids)
            wait
            """)
        let capture = LogCapture()
        let sink = HookSink(rules: [try runRule([.tap], script, [], timeout: 1)], logger: capture.logger)
        sink.receive(Sample.tap(), session: "s")
        #expect(await eventually { sink.statistics[0].timedOut == 1 })
        let all = readLines(pids).compactMap { Int32($0) }
        #expect(all.count == 3)
        #expect(await eventually { all.allSatisfy(processIsGone) })
        await closeOffPool(sink)
        let stats = sink.statistics[0]
        #expect(stats.outputLogged <= 100 + 1 && stats.outputSuppressed > 1_000)
        #expect(capture.lines.contains { $0.contains("run hook output: suppressed") })
    }

    /// A line over the length limit is logged cut, ending in "…".
    @Test func longLineIsCutInTheLog() async throws {
        let dir = try makeTempDir()
        let script = try writeScript(dir, "long.sh", "#!/bin/sh\nhead -c 5000 /dev/zero | tr '\\0' x\necho\necho next\n")
        let capture = LogCapture()
        let sink = HookSink(rules: [try runRule([.tap], script, [])], logger: capture.logger)
        sink.receive(Sample.tap(), session: "s")
        #expect(await eventually { sink.statistics[0].outputLogged == 2 })
        await closeOffPool(sink)
        let lines = outputLines(capture)
        #expect(lines.count == 2)
        #expect(lines.first?.contains("hook.output=" + String(repeating: "x", count: 1_024) + "… ") == true)
        #expect(lines.last?.contains("hook.output=next") == true)
    }

    /// The hook's processes get the pipes as fd 1 and 2 only: nothing else of the server's
    /// (its stderr, the pipes' read ends) leaks into them.
    @Test func processesSeeOnlyTheirOwnDescriptors() async throws {
        let dir = try makeTempDir()
        let out = dir.appendingPathComponent("fds").path
        let script = try writeScript(dir, "fds.sh", "#!/bin/sh\nls /proc/$$/fd > \(out)\n")
        let sink = HookSink(rules: [try runRule([.tap], script, [])], logger: quietLogger)
        sink.receive(Sample.tap(), session: "s")
        #expect(await eventually { readLines(out).count >= 3 })
        await closeOffPool(sink)
        // 0, 1, 2 and the descriptor `ls` reads the directory with (and sh's script, if any).
        #expect(readLines(out).compactMap { Int($0) }.filter { $0 > 2 }.count <= 2, "\(readLines(out))")
    }
}
