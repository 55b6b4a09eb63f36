import Foundation
import GestureEngine
import GesturePadSettings
import Testing

@testable import GesturePadSinks

#if canImport(Glibc)
    import Glibc
#endif

/// A `run` rule for `program` with literal/placeholder `args`.
func runRule(
    _ gestures: [GestureKind], _ program: String, _ args: [String], timeout: Double = 5,
    concurrency: Int = 1, queue: Int = 16
) throws -> HookRule {
    var options = RunHookOptions(program: program, arguments: try args.map { try ArgvTemplate(parsing: $0) })
    options.timeout = timeout
    options.concurrency = concurrency
    options.queueLimit = queue
    return HookRule(name: "test", gestures: gestures, action: .run(options))
}

/// Whether a process is gone (no such pid, or a zombie nobody reaped yet).
func processIsGone(_ pid: Int32) -> Bool {
    if kill(pid, 0) != 0 { return true }
    let stat = readText("/proc/\(pid)/stat")
    guard let close = stat.lastIndex(of: ")") else { return true }
    let state = stat[stat.index(close, offsetBy: 2)]
    return state == "Z" || state == "X"
}

@Suite(.serialized) struct RunHookTests {
    /// The recording script: stdin, GESTUREPAD_* environment and argv, one file each.
    static let recorder = """
        #!/bin/sh
        out="$1"; shift
        cat > "$out.stdin.tmp"
        env | grep '^GESTUREPAD_' | sort > "$out.env"
        for a in "$@"; do printf '%s\\n' "$a"; done > "$out.argv"
        mv "$out.stdin.tmp" "$out.stdin"
        """

    /// A run hook's script gets the event JSON on stdin, GESTUREPAD_* variables and expanded
    /// placeholders. (That it never gets the server's GESTUREPAD_TOKEN is checked end to end in
    /// tests/hooks/test_server_hooks.py: setting it here would change the environment of a test
    /// process whose other suites spawn processes at the same time.)
    @Test func scriptReceivesStdinEnvAndArgv() async throws {
        let dir = try makeTempDir()
        let script = try writeScript(dir, "record.sh", Self.recorder)
        let out = dir.appendingPathComponent("drag").path
        let sink = HookSink(
            rules: [try runRule([.drag], script, [out, "{ddx}", "{ddy:int}", "{gesture}-{phase}", "p={pointers}", "{{x}}"])],
            logger: quietLogger)
        let event = Sample.drag(.changed, t: 42.5, ddx: 3.25, ddy: -7.6)
        sink.receive(Sample.tap(), session: "s1")  // does not match
        sink.receive(event, session: "s1")
        #expect(await eventually { FileManager.default.fileExists(atPath: out + ".stdin") })
        let stdin = readText(out + ".stdin")
        #expect(stdin.hasSuffix("\n"))
        let object = try #require(jsonObject(stdin))
        #expect(object["type"] as? String == "gesture" && object["gesture"] as? String == "drag")
        #expect(object["ddx"] as? Double == 3.25 && object["t"] as? Double == 42.5 && object["session"] as? String == "s1")
        #expect(object["time"] is String)
        #expect(readLines(out + ".argv") == ["3.25", "-8", "drag-changed", "p=1", "{x}"])
        let env = Dictionary(
            uniqueKeysWithValues: readLines(out + ".env").map { line -> (String, String) in
                let parts = line.split(separator: "=", maxSplits: 1)
                return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
            })
        #expect(env["GESTUREPAD_GESTURE"] == "drag")
        #expect(env["GESTUREPAD_PHASE"] == "changed")
        #expect(env["GESTUREPAD_X"] == "50" && env["GESTUREPAD_Y"] == "60")
        #expect(env["GESTUREPAD_POINTERS"] == "1")
        #expect(env["GESTUREPAD_SESSION"] == "s1")
        #expect(env["GESTUREPAD_DDX"] == "3.25" && env["GESTUREPAD_DDY"] == "-7.6")
        #expect(env["GESTUREPAD_PREDICTED_DX"] == "50" && env["GESTUREPAD_START_X"] == "40")
        #expect(env["GESTUREPAD_TIME"]?.hasSuffix("Z") == true)
        #expect(sink.statistics[0].started == 1)
        await closeOffPool(sink)
    }

    /// Shell metacharacters and quotes in the session id never reach a shell or an argv.
    @Test func metacharactersStayData() async throws {
        let dir = try makeTempDir()
        let script = try writeScript(dir, "record.sh", Self.recorder)
        let marker = dir.appendingPathComponent("pwned").path
        let session = "x\"; touch \(marker); echo '$(touch \(marker))' `touch \(marker)` | & > \(marker) \\ {ddx} {session}"
        let out = dir.appendingPathComponent("meta").path
        // A literal argument with metacharacters is passed verbatim too: there is no shell.
        let literal = "$(touch \(marker));`touch \(marker)`"
        let sink = HookSink(rules: [try runRule([.swipe], script, [out, "{direction}", literal])], logger: quietLogger)
        sink.receive(Sample.swipe(.right), session: session)
        #expect(await eventually { FileManager.default.fileExists(atPath: out + ".stdin") })
        #expect(!FileManager.default.fileExists(atPath: marker))
        #expect(readLines(out + ".argv") == ["right", literal])
        let object = try #require(jsonObject(readText(out + ".stdin")))
        #expect(object["session"] as? String == session)
        #expect(readText(out + ".env").contains("GESTUREPAD_SESSION=\(session)\n"))
        await closeOffPool(sink)
    }

    /// A hanging script is killed with its process group at the timeout; the sink accepts events at once meanwhile.
    @Test func hangingScriptIsKilledAtTimeout() async throws {
        let dir = try makeTempDir()
        let pids = dir.appendingPathComponent("pids").path
        let script = try writeScript(
            dir, "hang.sh",
            """
            #!/bin/sh
            sleep 60 &
            echo "$$ $!" >> \(pids)
            sleep 60
            """)
        let sink = HookSink(rules: [try runRule([.tap], script, [], timeout: 0.5, concurrency: 1, queue: 2)], logger: quietLogger)
        let start = Date()
        sink.receive(Sample.tap(t: 1), session: "s")
        #expect(await eventually { readLines(pids).count == 1 })
        // While it hangs, submitting stays instant and overflow is dropped, not waited for.
        var latency = SubmitLatency()
        for i in 0..<2_000 {
            latency.measure { sink.receive(Sample.tap(t: Double(i + 2)), session: "s") }
        }
        latency.expectNonBlocking()
        #expect(sink.statistics[0].dropped >= 1_990)
        #expect(await eventually { sink.statistics[0].timedOut >= 1 })
        let elapsed = Date().timeIntervalSince(start)
        #expect(elapsed >= 0.5, "killed at its deadline, never before (exact: HookPolicyTests)")
        let first = try #require(readLines(pids).first).split(separator: " ").compactMap { Int32($0) }
        #expect(first.count == 2)
        #expect(await eventually { first.allSatisfy(processIsGone) }, "script and its background child are killed")
        // The queued events run next (and time out in turn): the hook keeps working.
        #expect(await eventually { readLines(pids).count >= 2 })
        await closeOffPool(sink)
    }

    /// A hook starts and gets its event while every thread of the cooperative pool is blocked:
    /// hooks run on their own worker thread (a busy pool once kept a hook from starting).
    @Test func startsWhileThePoolIsBlocked() async throws {
        let dir = try makeTempDir()
        let fifo = dir.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let script = try writeScript(dir, "hello.sh", "#!/bin/sh\nread -r line\necho \"$GESTUREPAD_GESTURE\" > \(fifo)\n")
        let sink = HookSink(rules: [try runRule([.tap], script, [])], logger: quietLogger)
        let release = DispatchSemaphore(value: 0)
        let blockers = ProcessInfo.processInfo.activeProcessorCount
        for _ in 0..<blockers { Task.detached { release.wait() } }
        sink.receive(Sample.tap(), session: "s")
        // This test's own thread blocks too: no pool thread is left to run a hook.
        let text = readFIFOBlocking(fifo)
        for _ in 0..<blockers { release.signal() }
        #expect(text == "tap\n")
        await closeOffPool(sink)
    }

    /// A script held open for writing cannot start (text file busy): a few retries, then one
    /// failure; once it is written, the next event runs it.
    @Test func busyScriptFailsAfterRetriesThenRuns() async throws {
        let dir = try makeTempDir()
        let done = dir.appendingPathComponent("done").path
        let script = try writeScript(dir, "busy.sh", "#!/bin/sh\ntouch \(done)\n")
        let writer = open(script, O_WRONLY)
        #expect(writer >= 0)
        let capture = LogCapture()
        let sink = HookSink(rules: [try runRule([.tap], script, [])], logger: capture.logger)
        let start = ContinuousClock.now
        sink.receive(Sample.tap(t: 1), session: "s")
        #expect(await eventually { sink.statistics[0].failed == 1 })
        // The retries' delays add up to 310 ms: the failure cannot come sooner.
        #expect(ContinuousClock.now - start >= .milliseconds(310))
        // Logged on the hook's worker thread, after the count: it may come a moment later.
        #expect(await eventually { capture.lines.contains { $0.contains("run hook could not run") } })
        close(writer)
        sink.receive(Sample.tap(t: 2), session: "s")
        #expect(await eventually { FileManager.default.fileExists(atPath: done) })
        #expect(sink.statistics[0].failed == 1 && sink.statistics[0].started == 2)
        await closeOffPool(sink)
    }

    /// Crashing scripts cost their events only: failures are counted and later events still run.
    @Test func crashingScriptIsContained() async throws {
        let dir = try makeTempDir()
        let crash = try writeScript(dir, "crash.sh", "#!/bin/sh\nkill -SEGV $$\n")
        let fail = try writeScript(dir, "fail.sh", "#!/bin/sh\nexit 3\n")
        let count = dir.appendingPathComponent("count").path
        let ok = try writeScript(dir, "ok.sh", "#!/bin/sh\necho x >> \(count)\n")
        let sink = HookSink(
            rules: [
                try runRule([.tap], crash, [], concurrency: 2, queue: 100),
                try runRule([.tap], fail, [], concurrency: 2, queue: 100),
                try runRule([.tap], dir.appendingPathComponent("missing-program").path, []),
                try runRule([.tap], ok, [], concurrency: 2, queue: 100),
            ], logger: quietLogger)
        for i in 0..<20 { sink.receive(Sample.tap(t: Double(i)), session: "s") }
        #expect(await eventually { readLines(count).count == 20 })
        #expect(await eventually { sink.statistics[0].failed == 20 && sink.statistics[1].failed == 20 })
        #expect(await eventually { sink.statistics[2].failed >= 1 })
        await closeOffPool(sink)
    }

    /// Rules match on gesture, phase, pointers, direction, count and session.
    @Test func ruleMatching() async throws {
        var rule = try runRule([.swipe, .tap], "true", [])
        #expect(rule.matches(Sample.swipe(.left), session: "a"))
        #expect(!rule.matches(Sample.drag(.began, t: 1), session: "a"))
        rule.direction = .left
        #expect(rule.matches(Sample.swipe(.left), session: "a"))
        #expect(!rule.matches(Sample.swipe(.up), session: "a"))
        #expect(!rule.matches(Sample.tap(), session: "a"))
        rule.direction = nil
        rule.count = 2
        #expect(rule.matches(Sample.tap(count: 2), session: "a"))
        #expect(!rule.matches(Sample.tap(count: 1), session: "a"))
        rule.count = nil
        rule.pointers = 3
        #expect(rule.matches(Sample.swipe(.left), session: "a"))
        #expect(!rule.matches(Sample.tap(), session: "a"))
        rule.pointers = nil
        rule.session = "b"
        #expect(!rule.matches(Sample.swipe(.left), session: "a"))
        #expect(rule.matches(Sample.swipe(.left), session: "b"))
        var drag = try runRule([.drag], "true", [])
        drag.phases = [.began, .ended]
        #expect(drag.matches(Sample.drag(.began, t: 1), session: "a"))
        #expect(!drag.matches(Sample.drag(.changed, t: 1), session: "a"))
    }

    /// Placeholders expand numbers, rounded integers, names and literal braces.
    @Test func argvTemplates() async throws {
        let event = Sample.drag(.changed, t: 1, ddx: 2.5, ddy: -2.5)
        #expect(try ArgvTemplate(parsing: "{ddx}").expand(for: event) == "2.5")
        #expect(try ArgvTemplate(parsing: "{ddx:int},{ddy:int}").expand(for: event) == "3,-3")
        #expect(try ArgvTemplate(parsing: "a{{b}}c").expand(for: event) == "a{b}c")
        #expect(try ArgvTemplate(parsing: "{phase}").expand(for: event) == "changed")
        #expect(try ArgvTemplate(parsing: "--").isLiteral)
        #expect(throws: ArgvTemplateError.self) { try ArgvTemplate(parsing: "{ddx") }
        #expect(throws: ArgvTemplateError.self) { try ArgvTemplate(parsing: "a}b") }
        #expect(throws: ArgvTemplateError.self) { try ArgvTemplate(parsing: "{$(x)}") }
    }
}
