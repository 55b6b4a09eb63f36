import Foundation
import GestureEngine
import GesturePadConfig
import Testing

@testable import GesturePadSinks

@Suite(.serialized) struct HookDirectoryTests {
    /// A `run` hook whose program is a relative path starts from the configuration file's
    /// folder, not the working directory, and runs in that folder.
    @Test func runHookResolvesAgainstTheConfigFolder() async throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("bin"), withIntermediateDirectories: true)
        try writeScript(dir, "bin/hook.sh", "#!/bin/sh\npwd > ran.tmp && mv ran.tmp ran\n")
        let file = dir.appendingPathComponent("config.yaml").path
        try "hooks:\n  - {gesture: tap, run: [bin/hook.sh]}\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(FileManager.default.currentDirectoryPath != dir.path)
        let config = try ConfigFile.load(path: file)
        let sink = HookSink(rules: config.hooks, logger: quietLogger)
        sink.receive(Sample.tap(), session: "1")
        let ran = dir.appendingPathComponent("ran").path
        #expect(await eventually { FileManager.default.fileExists(atPath: ran) })
        #expect(readText(ran).trimmingCharacters(in: .newlines) == dir.standardizedFileURL.path)
        #expect(sink.statistics[0].failed == 0)
        await closeOffPool(sink)
    }

    /// A `pipe` hook's relative arguments (a script for an interpreter) work from anywhere: the
    /// process starts in the configuration file's folder.
    @Test func pipeHookRunsInTheConfigFolder() async throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "while read -r line; do printf '%s\\n' \"$line\" >> got.jsonl; done\n".write(
            to: dir.appendingPathComponent("pipe.sh"), atomically: true, encoding: .utf8)
        let file = dir.appendingPathComponent("config.yaml").path
        try "hooks:\n  - {gesture: tap, pipe: [sh, pipe.sh]}\n".write(toFile: file, atomically: true, encoding: .utf8)
        let config = try ConfigFile.load(path: file)
        let sink = HookSink(rules: config.hooks, logger: quietLogger)
        let got = dir.appendingPathComponent("got.jsonl").path
        // The pipe process may still be starting: keep sending until a line arrives.
        #expect(
            await eventually {
                sink.receive(Sample.tap(), session: "1")
                return !readLines(got).isEmpty
            })
        #expect(jsonObject(readLines(got)[0])?["gesture"] as? String == "tap")
        await closeOffPool(sink)
    }
}
