import Foundation
import GestureEngine
import GesturePadSettings
import Testing

@testable import GesturePadSinks

/// A configuration reload hands a `HookSink` new rules (`replaceRules`), with real processes.
@Suite(.serialized) struct HookReloadTests {
    /// A rule left as it was keeps its runner (its `pipe` process goes on, not restarted); a
    /// removed rule takes no event after the call; a new rule takes the next ones.
    @Test func equalRulesKeepTheirProcessesAndOthersChange() async throws {
        let dir = try makeTempDir()
        let piped = dir.appendingPathComponent("piped").path
        let ran = dir.appendingPathComponent("ran").path
        let pipe = try writeScript(
            dir, "pipe.sh", "#!/bin/sh\nwhile IFS= read -r line; do printf '%s\\n' \"$line\" >> \(piped); done\n")
        let run = try writeScript(dir, "run.sh", "#!/bin/sh\necho \"$1 $2\" >> \(ran)\n")
        let kept = pipeRule([.tap], pipe)
        let old = try runRule([.tap], run, ["old", "{t:int}"])
        let new = try runRule([.tap], run, ["new", "{t:int}"])
        let sink = HookSink(rules: [kept, old], logger: quietLogger)
        sink.receive(Sample.tap(t: 1), session: "s")
        #expect(await eventually { readLines(piped).count == 1 && readLines(ran) == ["old 1"] })
        let pid = try #require(sink.statistics[0].pid)

        sink.replaceRules([new, kept])
        #expect(sink.rules.map(\.rule) == [new, kept])
        sink.receive(Sample.tap(t: 2), session: "s")
        #expect(await eventually { readLines(piped).count == 2 && readLines(ran).count == 2 })
        #expect(readLines(ran) == ["old 1", "new 2"])
        #expect(sink.statistics[1].pid == pid && sink.statistics[1].started == 1, "the pipe process went on")

        sink.replaceRules([])
        sink.receive(Sample.tap(t: 3), session: "s")
        #expect(sink.rules.isEmpty)
        await closeOffPool(sink)
        #expect(readLines(ran) == ["old 1", "new 2"])
        #expect(readLines(piped).count == 2)
    }

    /// A rule a reload removed finishes what it had queued on a thread of its own, and the
    /// sink's `close()` waits for it (shutdown leaves no hook of a removed rule behind).
    @Test func closeWaitsForRemovedRules() async throws {
        let dir = try makeTempDir()
        let out = dir.appendingPathComponent("out").path
        let slow = try writeScript(dir, "slow.sh", "#!/bin/sh\nsleep 0.3\necho done >> \(out)\n")
        let sink = HookSink(rules: [try runRule([.tap], slow, [])], logger: quietLogger)
        sink.receive(Sample.tap(t: 1), session: "s")
        sink.replaceRules([])
        await closeOffPool(sink)
        #expect(readLines(out) == ["done"])
    }
}
