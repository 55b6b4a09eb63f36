import Foundation
import Testing

@testable import GesturePadSinks

/// Real processes, virtual time: a hook's timeout and restart backoff follow the clock it is
/// given. The timeouts here are an hour long, so only the manual clock can bring them about.
@Suite(.serialized) struct HookClockTests {
    /// A hanging script is killed, with its background child, when the manual clock passes its timeout.
    @Test func timeoutFollowsTheClock() async throws {
        let dir = try makeTempDir()
        let pids = dir.appendingPathComponent("pids").path
        let script = try writeScript(dir, "hang.sh", "#!/bin/sh\nsleep 600 &\necho \"$$ $!\" >> \(pids)\nsleep 600\n")
        let clock = ManualClock()
        let sink = HookSink(
            rules: [try runRule([.tap], script, [], timeout: 3_600)], logger: quietLogger, closeTimeout: 2,
            outputLimits: HookOutputLimits(), clock: clock)
        sink.receive(Sample.tap(), session: "s")
        #expect(await eventually { readLines(pids).count == 1 })
        let group = try #require(readLines(pids).first).split(separator: " ").compactMap { Int32($0) }
        #expect(group.count == 2 && !group.contains(where: processIsGone))
        #expect(sink.statistics[0].timedOut == 0)
        clock.advance(by: 3_600_000)
        sink.clockAdvanced()
        #expect(await eventually { sink.statistics[0].timedOut == 1 })
        #expect(await eventually { group.allSatisfy(processIsGone) })
        await closeOffPool(sink)
    }

    /// A crashing pipe is started again only when the manual clock reaches its backoff: 0.1 s, then 0.2 s.
    @Test func restartFollowsTheClock() async throws {
        let dir = try makeTempDir()
        let pids = dir.appendingPathComponent("pids").path
        let script = try writeScript(dir, "crash.sh", "#!/bin/sh\necho $$ >> \(pids)\nexit 1\n")
        let clock = ManualClock()
        let capture = LogCapture()
        let sink = HookSink(
            rules: [pipeRule([.tap], script)], logger: capture.logger, closeTimeout: 2, outputLimits: HookOutputLimits(),
            clock: clock)
        func restarts() -> [String] { capture.lines.filter { $0.contains("pipe hook exited; restarting") } }
        #expect(await eventually { restarts().count == 1 })
        #expect(restarts().first?.contains("hook.restartIn=0.1s") == true)
        clock.advance(by: 100)
        sink.clockAdvanced()
        #expect(await eventually { restarts().count == 2 })
        #expect(restarts().last?.contains("hook.restartIn=0.2s") == true)
        #expect(readLines(pids).count == 2)
        clock.advance(by: 200)
        sink.clockAdvanced()
        #expect(await eventually { readLines(pids).count == 3 })
        await closeOffPool(sink)
    }
}
