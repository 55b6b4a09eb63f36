import GesturePadSystem
import Glibc
import Testing

@testable import GesturePadSinks

/// The hooks' policies on a manual clock: backoff, run deadlines, queue limits and the
/// limit on the server's own messages, asserted exactly on virtual time. Nothing sleeps.
@Suite struct HookPolicyTests {
    /// A crashing pipe is restarted after 0.1, 0.2, 0.4 … s, at most 5 s apart.
    @Test func restartBackoffDoublesToFiveSeconds() {
        let clock = ManualClock()
        var backoff = RestartBackoff()
        var delays: [Double] = []
        for _ in 0..<8 {
            let start = clock.now
            clock.advance(by: 10)  // each process lives 10 ms
            let restart = backoff.exited(startedAt: start, at: clock.now)
            delays.append(restart - clock.now)
            clock.advance(by: restart - clock.now)
        }
        let expected: [Double] = [100, 200, 400, 800, 1_600, 3_200, 5_000, 5_000]
        #expect(delays == expected)
    }

    /// A process that lived 10 s was healthy: the next restart is after 0.1 s again.
    @Test func restartBackoffResetsAfterAHealthyLife() {
        let clock = ManualClock()
        var backoff = RestartBackoff()
        for _ in 0..<4 { _ = backoff.exited(startedAt: clock.now, at: clock.now) }  // 0.1 … 0.8
        let start = clock.now
        clock.advance(by: 9_999)
        #expect(backoff.exited(startedAt: start, at: clock.now) - clock.now == 1_600)
        let healthy = clock.now
        clock.advance(by: 10_000)
        #expect(backoff.exited(startedAt: healthy, at: clock.now) - clock.now == 100)
    }

    /// Two slots, two queue places: the fifth event is dropped; a freed slot takes the oldest queued event.
    @Test func runScheduleLimitsAndQueues() {
        let clock = ManualClock()
        var schedule = RunHookSchedule<Int>(concurrency: 2, queueLimit: 2, timeoutMilliseconds: 5_000)
        let starts = (1...5).map { schedule.submit($0, at: clock.now) }
        #expect(starts.map { $0?.job } == [1, 2, nil, nil, nil])
        #expect(schedule.queued == 2 && schedule.dropped == 1 && schedule.started == 2)
        #expect(schedule.takeDropReport() == 1)
        #expect(schedule.takeDropReport() == nil)
        clock.advance(to: 1)
        let (killed, third) = schedule.finished(0, at: clock.now)
        #expect(killed == nil && third?.job == 3 && third?.deadline == clock.at(6))
        let fourth = schedule.finished(1, at: clock.now).next
        #expect(fourth?.job == 4)
        #expect(schedule.queued == 0 && schedule.started == 4)
        _ = schedule.finished(2, at: clock.now)
        _ = schedule.finished(3, at: clock.now)
        #expect(schedule.isIdle)
    }

    /// A process is killed exactly at its deadline, once, and counted as timed out.
    @Test func runScheduleKillsAtTheDeadline() {
        let clock = ManualClock()
        var schedule = RunHookSchedule<Int>(concurrency: 2, queueLimit: 0, timeoutMilliseconds: 500)
        let a = schedule.submit(1, at: clock.now)
        clock.advance(to: 0.2)
        let b = schedule.submit(2, at: clock.now)
        #expect(a?.deadline == clock.at(0.5) && b?.deadline == clock.at(0.7))
        #expect(schedule.nextDeadline == clock.at(0.5))
        clock.advance(to: 0.499)
        #expect(schedule.expire(at: clock.now).isEmpty)
        clock.advance(to: 0.5)
        #expect(schedule.expire(at: clock.now) == [a?.id ?? -1])
        #expect(schedule.expire(at: clock.now).isEmpty)
        #expect(schedule.nextDeadline == clock.at(0.7) && schedule.timedOut == 1)
        #expect(schedule.isKilled(a?.id ?? -1) && !schedule.isKilled(b?.id ?? -1))
        let aKilled = schedule.finished(a?.id ?? -1, at: clock.now).killed
        let bKilled = schedule.finished(b?.id ?? -1, at: clock.now).killed
        #expect(aKilled == .timeout && bKilled == nil)
        #expect(schedule.timedOut == 1 && schedule.isIdle)
    }

    /// At close, queued events still run; at the shutdown deadline they are dropped and running processes given up.
    @Test func runScheduleCloseAndAbandon() {
        let clock = ManualClock()
        var schedule = RunHookSchedule<Int>(concurrency: 1, queueLimit: 4, timeoutMilliseconds: 5_000)
        let first = schedule.submit(1, at: clock.now)
        _ = schedule.submit(2, at: clock.now)
        schedule.close()
        #expect(schedule.submit(3, at: clock.now) == nil && schedule.queued == 1 && schedule.dropped == 0)
        let next = schedule.finished(first?.id ?? -1, at: clock.now).next
        #expect(next?.job == 2)
        _ = schedule.submit(4, at: clock.now)
        #expect(schedule.abandon() == [next?.id ?? -1])
        #expect(schedule.queued == 0 && !schedule.isIdle)
        let after = schedule.finished(next?.id ?? -1, at: clock.now)
        #expect(after.killed == .shutdown && after.next == nil && schedule.timedOut == 0)
        #expect(schedule.isIdle)
    }

    /// A queue that never empties (events always come faster than the processes end, as under
    /// the soak's load) keeps its buffer bounded: the jobs already started are cleared out of it,
    /// and the waiting ones still start in order. (It used to keep every job it ever queued.)
    @Test func runScheduleSaturatedQueueStaysBounded() {
        let clock = ManualClock()
        let limit = 8
        var schedule = RunHookSchedule<Int>(concurrency: 1, queueLimit: limit, timeoutMilliseconds: 1_000)
        var running = schedule.submit(0, at: clock.now)
        for job in 1...limit { _ = schedule.submit(job, at: clock.now) }
        var next = limit + 1
        var started = [0]
        for _ in 0..<10_000 {
            // Three events per process: the queue is full again before every start.
            for _ in 0..<3 {
                _ = schedule.submit(next, at: clock.now)
                next += 1
            }
            clock.advance(by: 10)
            running = schedule.finished(running?.id ?? -1, at: clock.now).next
            if let job = running?.job { started.append(job) }
            #expect(schedule.queued == limit - 1)
            #expect(schedule.bufferedJobs <= 2 * limit + 1)
        }
        #expect(started.count == 10_001 && zip(started, started.dropFirst()).allSatisfy { $0 < $1 })
        #expect(schedule.dropped == next - started.count - schedule.queued)
    }

    /// "Text file busy" is retried after 10, 20, 40, 80, 160 ms, then the failure stands; other errors at once.
    @Test func spawnRetryOnlyForBusyText() {
        let clock = ManualClock()
        var retry = SpawnRetry()
        var delays: [Double] = []
        while let next = retry.failed(SystemCallError(errno: ETXTBSY), at: clock.now) {
            delays.append(next - clock.now)
            clock.advance(by: next - clock.now)
        }
        #expect(delays == [10, 20, 40, 80, 160])
        var other = SpawnRetry()
        #expect(other.failed(SystemCallError(errno: ENOENT), at: clock.now) == nil)
        #expect(other.failed(SystemCallError(errno: EACCES), at: clock.now) == nil)
    }

    /// The server's messages about a failing hook: five, then one note per 10 s with the count held back.
    @Test func eventLogLimitsFailureMessages() {
        let clock = ManualClock()
        let capture = LogCapture()
        let log = HookEventLog(label: "run hook messages", logger: capture.logger, clock: clock)
        var wakes: [Double] = []
        for _ in 0..<20 {
            if let wake = log.log(.warning, "run hook failed") { wakes.append(wake) }
        }
        #expect(capture.lines.filter { $0.contains("run hook failed") }.count == 5)
        #expect(wakes == [clock.at(10)])
        clock.advance(to: 9.999)
        log.expire()
        #expect(!capture.lines.contains { $0.contains("suppressed") })
        clock.advance(to: 10)
        log.expire()
        #expect(capture.lines.last?.hasPrefix("notice run hook messages: suppressed 15 messages") == true)
        // After the note the bucket is full again: the next five pass.
        for _ in 0..<5 { log.log(.warning, "run hook failed") }
        #expect(capture.lines.filter { $0.contains("run hook failed") }.count == 10)
        #expect(log.statistics.logged == 10 && log.statistics.suppressed == 15)
    }

    /// Messages held back when the hook stops get their note at once.
    @Test func eventLogNoteAtFinish() {
        let clock = ManualClock()
        let capture = LogCapture()
        let log = HookEventLog(label: "pipe hook messages", logger: capture.logger, clock: clock)
        for _ in 0..<7 { log.log(.warning, "pipe hook exited; restarting") }
        clock.advance(to: 1)
        log.finish()
        #expect(capture.lines.last?.hasPrefix("notice pipe hook messages: suppressed 2 messages") == true)
        log.finish()
        #expect(capture.lines.filter { $0.contains("suppressed") }.count == 1)
    }
}
