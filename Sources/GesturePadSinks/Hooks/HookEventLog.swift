import GesturePadSystem
import Logging
import Synchronization

/// The server's own messages about one hook's events ("run hook failed", "pipe hook exited;
/// restarting", …), limited like the hook's output (`HookOutputLimiter`): the first
/// `burst` pass, then they are only counted until the bucket is full again, and one note
/// "<label>: suppressed N messages" says how many were left out. A hook that fails on every
/// event thus costs a few lines per interval, not a line per event.
///
/// The time comes from the clock at each call. `log` returns the moment a suppression that
/// just began ends; the owner calls `expire()` then (the note is due even if no message
/// follows), and `finish()` at close.
final class HookEventLog: Sendable {
    /// 5 messages at once, then one per 2 s on average: a suppression lasts 10 s.
    static let limits: HookOutputLimits = {
        var limits = HookOutputLimits()
        limits.burst = 5
        limits.linesPerSecond = 0.5
        return limits
    }()

    private let label: String
    private let logger: Logger
    private let clock: any WorkerClock
    private let limiter: Mutex<HookOutputLimiter>

    /// - Parameter label: the note's subject, e.g. "run hook messages".
    init(label: String, logger: Logger, clock: any WorkerClock, limits: HookOutputLimits = HookEventLog.limits) {
        self.label = label
        self.logger = logger
        self.clock = clock
        limiter = Mutex(HookOutputLimiter(limits: limits))
    }

    /// Messages logged and suppressed so far.
    var statistics: (logged: Int, suppressed: Int) {
        limiter.withLock { ($0.loggedLines, $0.suppressedLines) }
    }

    /// Logs the message unless the limit holds it back. Returns when to call `expire()`, if a
    /// suppression just began.
    @discardableResult
    func log(_ level: Logger.Level, _ message: @autoclosure () -> Logger.Message, metadata: Logger.Metadata = [:])
        -> Double?
    {
        let now = clock.now
        let admission = limiter.withLock { $0.admit(lines: 1, at: now) }
        if let note = admission.note { logNote(note) }
        if admission.log > 0 { logger.log(level: level, message(), metadata: metadata) }
        return admission.wake
    }

    /// `log`, with the note of a suppression that begins here due on `worker`'s clock.
    func log(
        _ level: Logger.Level, _ message: @autoclosure () -> Logger.Message, metadata: Logger.Metadata = [:],
        on worker: WorkerExecutor
    ) {
        guard let wake = log(level, message(), metadata: metadata) else { return }
        Task(executorPreference: worker) {
            try? await worker.sleep(until: wake)
            self.expire()
        }
    }

    /// The wake-up at the end of a suppression: its note, if any message was held back.
    func expire() {
        let now = clock.now
        if let note = limiter.withLock({ $0.expire(at: now) }) { logNote(note) }
    }

    /// The hook stops: the note of the messages held back since the last one.
    func finish() {
        let now = clock.now
        if let note = limiter.withLock({ $0.finish(at: now) }) { logNote(note) }
    }

    private func logNote(_ count: Int) {
        let limits = limiter.withLock { $0.limits }
        logger.notice(
            "\(label): suppressed \(count) \(count == 1 ? "message" : "messages")",
            metadata: [
                "hook.messages.limit":
                    "\(limits.burst) at once, \(GestureJSON.numberText(limits.linesPerSecond)) per second"
            ])
    }
}
