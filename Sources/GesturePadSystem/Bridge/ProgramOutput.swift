import Dispatch
import Glibc

/// Runs a short program and reads what it prints (the desktop's settings tools: `gsettings`,
/// `swaymsg`; PipeWire's `wpctl`): found on `PATH`, its standard input and error on /dev/null
/// (`ChildProcess`), its output read up to `limit` bytes. A program that has not printed
/// everything and exited within `timeoutMilliseconds` in all is killed. Blocks the calling
/// thread for at most that: call it from a worker.
public enum ProgramOutput {
    /// What `program` printed, when it started and exited with status 0 in time; nil otherwise.
    public static func read(
        _ program: String, arguments: [String], limit: Int = 256 * 1_024, timeoutMilliseconds: Int32 = 2_000
    ) -> [UInt8]? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        defer { close(readEnd) }
        let input = ChildProcess.devNull(writing: false)
        let errors = ChildProcess.devNull(writing: true)
        let child = try? ChildProcess.start(
            ChildProcess.Launch(
                program: program, arguments: arguments, standardInput: input, standardOutput: writeEnd,
                standardError: errors, group: .server))
        for descriptor in [writeEnd, input, errors] where descriptor >= 0 { close(descriptor) }
        guard let child else { return nil }

        let deadline = MonotonicClock.nowMilliseconds() + Double(max(0, timeoutMilliseconds))
        func left() -> Double { max(0, deadline - MonotonicClock.nowMilliseconds()) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096)
        var timedOut = false
        while output.count <= limit {
            var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(left().rounded(.up)))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else {
                timedOut = true
                break
            }
            let count = chunk.withUnsafeMutableBytes { Glibc.read(readEnd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            output += chunk.prefix(count)
        }
        // Its output ended: it may still linger (a child that kept the pipe, a slow exit), so
        // its end is awaited on a thread of its own, against the same deadline.
        let cutShort = timedOut || output.count > limit
        if !cutShort && !ended(child, within: left()) { timedOut = true }
        if cutShort || timedOut { child.kill() }
        let exitedCleanly = child.waitForExit().isSuccess
        return !cutShort && !timedOut && exitedCleanly ? output : nil
    }

    /// Whether `child` ends within `milliseconds` (not reaped: the caller does that).
    private static func ended(_ child: ChildProcess, within milliseconds: Double) -> Bool {
        let ended = DispatchSemaphore(value: 0)
        SystemThread.detachNewThread(name: "gp-program-end") {
            child.waitUntilEnded()
            ended.signal()
        }
        return ended.wait(timeout: .now() + .milliseconds(Int(milliseconds.rounded(.up)))) == .success
    }
}
