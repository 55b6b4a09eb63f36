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
        guard let pipe = try? OutputPipe() else { return nil }
        defer { pipe.closeReadEnd() }
        let input = ChildProcess.devNull(writing: false)
        let errors = ChildProcess.devNull(writing: true)
        let child = try? ChildProcess.start(
            ChildProcess.Launch(
                program: program, arguments: arguments, standardInput: input, standardOutput: pipe.writeEnd,
                standardError: errors, group: .server))
        pipe.closeWriteEnd()
        for descriptor in [input, errors] where descriptor >= 0 { close(descriptor) }
        guard let child else { return nil }

        let deadline = MonotonicClock.nowMilliseconds() + Double(max(0, timeoutMilliseconds))
        func left() -> Double { max(0, deadline - MonotonicClock.nowMilliseconds()) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096)
        var timedOut = false
        reading: while output.count <= limit {
            // An empty answer with time left is a signal's interruption: wait again.
            guard !OutputPipe.wait(for: [pipe.readEnd], timeout: left()).isEmpty else {
                if left() > 0 { continue }
                timedOut = true
                break
            }
            switch pipe.read(into: &chunk) {
            case .bytes(let count): output += chunk.prefix(count)
            case .empty: continue
            case .ended: break reading
            }
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
