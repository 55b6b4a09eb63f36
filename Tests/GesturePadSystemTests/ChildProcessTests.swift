import Glibc
import Testing

@testable import GesturePadSystem

/// `ChildProcess`: a real process started with posix_spawn, in its own group, in the folder
/// asked for, with exactly the environment and the three descriptors given.
@Suite struct ChildProcessTests {
    /// Starts `launch` with the write end of a new pipe as its output; returns the child and
    /// the read end, which the caller closes.
    private func startPiped(_ launch: (Int32) -> ChildProcess.Launch) throws -> (ChildProcess, Int32) {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[1]) }
        do {
            return (try ChildProcess.start(launch(ends[1])), ends[0])
        } catch {
            close(ends[0])
            throw error
        }
    }

    /// Runs `launch` to its end; its output is read to the end after it exits.
    private func run(_ launch: (Int32) -> ChildProcess.Launch) throws -> (exit: ChildProcess.Exit, output: String, pid: pid_t) {
        let (child, output) = try startPiped(launch)
        defer { close(output) }
        let exit = child.waitForExit()
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(output, &buffer, buffer.count)
            guard n > 0 else { break }
            bytes += buffer[0..<n]
        }
        return (exit, String(decoding: bytes, as: UTF8.self), child.pid)
    }

    private func shell(_ script: String, in directory: String? = nil, environment: [String] = ["PATH=/usr/bin:/bin"])
        -> (Int32) -> ChildProcess.Launch
    {
        { out in
            ChildProcess.Launch(
                program: "sh", arguments: ["-c", script], environment: environment, workingDirectory: directory,
                standardInput: STDIN_FILENO, standardOutput: out, standardError: out)
        }
    }

    /// The folder, the environment (nothing else of ours), its own process group, exit codes.
    @Test func startsWhereAndAsAsked() throws {
        let result = try run(shell("pwd; echo \"$GREETING\"; env | wc -l; ps -o pgid= -p $$; exit 3", in: "/usr/share",
            environment: ["PATH=/usr/bin:/bin", "GREETING=hello there"]))
        let lines = result.output.split(separator: "\n").map { String($0).trimmingWhitespace() }
        #expect(result.exit == .exited(3) && !result.exit.isSuccess)
        #expect(lines.count == 4)
        #expect(lines.first == "/usr/share" && lines.dropFirst().first == "hello there")
        // PATH, GREETING, and what sh itself sets (PWD, maybe SHLVL): no variable of the test's.
        #expect((Int(lines[2]) ?? 99) <= 4)
        #expect(lines.last == "\(result.pid)")
    }

    /// Only 0, 1 and 2 reach the child, whatever the parent holds open without close-on-exec.
    @Test func inheritsNoOtherDescriptor() throws {
        let held = open("/dev/null", O_RDONLY)  // no O_CLOEXEC: a child of fork + exec keeps it
        defer { close(held) }
        let result = try run(shell("ls /proc/self/fd"))
        let fds = result.output.split(separator: "\n").compactMap { Int($0) }.filter { $0 > 2 }
        // `ls` sees the descriptor it reads the folder with, and nothing else above 2.
        #expect(held > 2 && fds.count == 1)
        #expect(result.exit.isSuccess)
    }

    /// A missing program is an error of the start (ENOENT), not a process that exits 127.
    @Test func aMissingProgramFailsToStart() {
        #expect(throws: SystemCallError(errno: ENOENT)) {
            try ChildProcess.start(
                ChildProcess.Launch(
                    program: "/nonexistent/gesturepad-hook", arguments: [], environment: [], workingDirectory: nil,
                    standardInput: STDIN_FILENO, standardOutput: STDOUT_FILENO, standardError: STDERR_FILENO))
        }
    }

    /// killGroup ends the child and what it started; the end is told as the signal.
    @Test func killGroupEndsTheWholeGroup() throws {
        let (child, output) = try startPiped(shell("sleep 60 & echo $!; wait"))
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = read(output, &buffer, buffer.count)
        let grandchild = pid_t(String(decoding: buffer[0..<max(n, 0)], as: UTF8.self).trimmingWhitespaceAndNewlines()) ?? 0
        #expect(grandchild > 0)
        child.killGroup()
        #expect(child.waitForExit() == .signaled(SIGKILL))
        // The grandchild (`sleep 60`) holds the pipe's write end too: the end of file comes now
        // only because it was killed with the group, not in a minute.
        #expect(read(output, &buffer, buffer.count) == 0)
    }

    /// The environment: the server's, without the names removed, with the added ones last.
    @Test func environmentEntries() {
        setenv("GESTUREPAD_CHILD_TEST_SECRET", "x", 1)
        setenv("GESTUREPAD_CHILD_TEST_KEPT", "old", 1)
        let entries = ChildProcess.environment(
            removing: ["GESTUREPAD_CHILD_TEST_SECRET"], adding: [("GESTUREPAD_CHILD_TEST_KEPT", "new"), ("A_B", "c=d")])
        #expect(!entries.contains { $0.hasPrefix("GESTUREPAD_CHILD_TEST_SECRET=") })
        #expect(entries.filter { $0.hasPrefix("GESTUREPAD_CHILD_TEST_KEPT=") } == ["GESTUREPAD_CHILD_TEST_KEPT=new"])
        #expect(entries.suffix(2) == ["GESTUREPAD_CHILD_TEST_KEPT=new", "A_B=c=d"])
        #expect(entries.contains { $0.hasPrefix("PATH=") })
    }
}
