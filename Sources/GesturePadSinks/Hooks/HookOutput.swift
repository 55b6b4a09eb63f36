import FoundationEssentials
import GesturePadSystem
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The I/O shell around one hook's `HookOutputLimiter`. Every process of the hook gets the
/// write ends of two pipes as its stdout and stderr; the pipes live as long as the hook, so a
/// process it leaves running (a daemon) can keep writing. One thread reads both at the
/// limiter's pace and carries out its decisions: log these lines, log this note first, pause
/// reading until then (the pipes fill, the writers wait), wake up then for a note.
///
/// The thread is a `WorkerThread` whose turns wait by themselves, in a `poll` on both pipes
/// and a wake pipe (started with `start()`); what other threads tell it (a process ended, the
/// close) goes through a `WorkerMailbox` whose wake-up rings that pipe.
final class HookOutput: Sendable {
    enum Stream: String, Sendable {
        case stdout, stderr
    }

    let limits: HookOutputLimits
    /// What a process of this hook gets as its fd 1 and 2.
    let standardOutput: Int32
    let standardError: Int32
    private let pipes: [(stream: Stream, pipe: OutputPipe)]
    private let wakePipe: OutputPipe?
    private let label: String
    private let logger: Logger
    /// Processes of the hook that ended since the thread last looked; its stop is the close.
    private let endings: WorkerMailbox<Int>
    private let thread: WorkerThread
    /// The limiter's counts as the thread last published them.
    private let counts = Mutex((logged: 0, suppressed: 0))
    private let started: Bool
    private let clock: any WorkerClock

    /// Makes the pipes and starts the reading thread.
    /// - Parameter label: the log message of each line, e.g. "pipe hook output".
    /// `threadName`: its reader thread's, as `top -H` shows it (the rule's: `gpo-<rule>`).
    init(
        label: String, threadName: String, limits: HookOutputLimits, logger: Logger,
        clock: any WorkerClock = SystemWorkerClock()
    ) {
        self.label = label
        self.clock = clock
        self.limits = limits.sanitized
        self.logger = logger
        let made = (try? OutputPipe(), try? OutputPipe(), try? OutputPipe(nonBlockingWrites: true))
        if let out = made.0, let err = made.1, let wake = made.2 {
            pipes = [(.stdout, out), (.stderr, err)]
            wakePipe = wake
            standardOutput = out.writeEnd
            standardError = err.writeEnd
        } else {
            // Out of descriptors: the hook's output is discarded rather than let through unlimited.
            for pipe in [made.0, made.1, made.2].compactMap({ $0 }) {
                pipe.closeReadEnd()
                pipe.closeWriteEnd()
            }
            logger.error("hook output pipes could not be made: the hook's output is discarded")
            let opened = open("/dev/null", O_WRONLY | O_CLOEXEC)
            let null = opened >= 0 ? opened : STDERR_FILENO
            pipes = []
            wakePipe = nil
            standardOutput = null
            standardError = null
        }
        let ring = wakePipe
        endings = WorkerMailbox(0) { ring?.ring() }
        thread = WorkerThread(name: threadName, clock: clock)
        started = wakePipe != nil
        guard started else { return }
        let reader = ThreadConfined<Reader?>(nil)
        thread.setTurn { [weak self] in
            guard let self else { return .exit }
            return reader.withValue { reader in
                var current = reader ?? makeReader()
                defer { reader = current }
                return turn(&current)
            }
        }
        thread.start()
    }

    /// Lines logged and suppressed so far.
    var statistics: (logged: Int, suppressed: Int) {
        counts.withLock { $0 }
    }

    /// The hook's end (a `pipe` process exited): once what it wrote is read, the note of the
    /// lines suppressed since the last one, if any.
    func processEnded() {
        endings.post { $0 += 1 }
    }

    /// Reads what is left (a bounded amount), logs the last note and stops the thread,
    /// waiting at most `timeout` seconds. Call once no process of the hook runs any more.
    func close(timeout: Double = 1) {
        guard endings.stop(), started else { return }
        _ = thread.join(timeout: timeout)
    }

    // MARK: - The reading thread

    /// The thread's state: the limiter and one line splitter per stream.
    private struct Reader {
        var limiter: HookOutputLimiter
        var lines: [HookOutputLines]
        var buffer = [UInt8](repeating: 0, count: 65_536)
        /// Reading is paused until then (the byte pace).
        var resumeAt: Double?
        /// Streams whose descriptor failed (never expected: the write ends are held open).
        var failed: Set<Int> = []
    }

    private func makeReader() -> Reader {
        Reader(
            limiter: HookOutputLimiter(limits: limits),
            lines: pipes.map { _ in HookOutputLines(maxBytes: limits.maxLineBytes) })
    }

    /// One turn of the thread: notes that are due, a process's end, then a wait for output
    /// (unless paused), the wake pipe or the next deadline; once closing, the last of it.
    private func turn(_ reader: inout Reader) -> WorkerTurn {
        guard let wakePipe else { return .exit }
        let now = clock.now
        if let note = reader.limiter.expire(at: now) { logNote(note) }
        if let resume = reader.resumeAt, now >= resume { reader.resumeAt = nil }
        let (ended, closing) = endings.take { count -> Int in
            defer { count = 0 }
            return count
        }
        if closing {
            finish(&reader, wakePipe: wakePipe)
            return .exit
        }
        if ended > 0 {
            // A process ended: what it wrote is read, its unfinished lines end with it.
            drain(&reader)
            flushUnfinishedLines(&reader)
            if let note = reader.limiter.finish(at: clock.now) { logNote(note) }
        }
        var deadline = reader.limiter.wake
        if let resume = reader.resumeAt { deadline = min(deadline ?? resume, resume) }
        let open = pipes.indices.filter { !reader.failed.contains($0) }
        let watched = [wakePipe.readEnd] + (reader.resumeAt == nil ? open.map { pipes[$0].pipe.readEnd } : [])
        let ready = OutputPipe.wait(for: watched, timeout: deadline.map { $0 - now })
        if ready.contains(wakePipe.readEnd) { _ = wakePipe.read(into: &reader.buffer) }
        for index in open where ready.contains(pipes[index].pipe.readEnd) {
            let result = pipes[index].pipe.read(into: &reader.buffer)
            if result == .ended { reader.failed.insert(index) }
            guard case .bytes(let n) = result else { continue }
            if case .pause(let until) = handle(n, from: index, &reader) {
                reader.resumeAt = until
                break
            }
        }
        return .again
    }

    /// Closing: no process of the hook runs; what is in the pipes is read (bounded), the
    /// unfinished lines logged, the last note given, the pipes closed.
    private func finish(_ reader: inout Reader, wakePipe: OutputPipe) {
        for entry in pipes { entry.pipe.closeWriteEnd() }
        drain(&reader)
        flushUnfinishedLines(&reader)
        if let note = reader.limiter.finish(at: clock.now) { logNote(note) }
        publish(reader.limiter)
        for entry in pipes { entry.pipe.closeReadEnd() }
        wakePipe.closeReadEnd()
        wakePipe.closeWriteEnd()
    }

    /// Reads what the pipes hold now, without the pace: at most four pipe-fulls per stream,
    /// so a daemon that keeps writing cannot hold the thread.
    private func drain(_ reader: inout Reader) {
        for (index, entry) in pipes.enumerated() {
            for _ in 0..<4 {
                guard case .bytes(let n) = entry.pipe.read(into: &reader.buffer) else { break }
                _ = handle(n, from: index, &reader)
            }
        }
    }

    /// Each stream's unfinished last line counts as a line.
    private func flushUnfinishedLines(_ reader: inout Reader) {
        for index in pipes.indices {
            guard let last = reader.lines[index].finish() else { continue }
            let admission = reader.limiter.admit(lines: 1, at: clock.now)
            carryOut(admission, lines: admission.log > 0 ? [last] : [], stream: pipes[index].stream)
        }
    }

    /// One chunk of `n` bytes in `reader.buffer` from stream `index`: the limiter decides.
    private func handle(_ n: Int, from index: Int, _ reader: inout Reader) -> HookOutputLimiter.Pace {
        let chunk = Array(reader.buffer[..<n])
        let now = clock.now
        let admission = reader.limiter.admit(lines: HookOutputLines.count(in: chunk), at: now)
        let lines = reader.lines[index].take(chunk, keeping: admission.log)
        carryOut(admission, lines: lines, stream: pipes[index].stream)
        publish(reader.limiter)
        return reader.limiter.read(bytes: n, at: now)
    }

    private func carryOut(_ admission: HookOutputLimiter.Admission, lines: [String], stream: Stream) {
        if let note = admission.note { logNote(note) }
        for line in lines {
            logger.notice("\(label)", metadata: ["hook.stream": "\(stream.rawValue)", "hook.output": "\(line)"])
        }
    }

    private func logNote(_ count: Int) {
        logger.notice(
            "\(label): suppressed \(count) \(count == 1 ? "line" : "lines")",
            metadata: [
                "hook.output.limit":
                    "\(limits.burst) lines at once, \(GestureJSON.numberText(limits.linesPerSecond)) lines/s"
            ])
    }

    private func publish(_ limiter: HookOutputLimiter) {
        counts.withLock { $0 = (limiter.loggedLines, limiter.suppressedLines) }
    }
}
