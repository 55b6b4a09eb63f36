import Dispatch
import FoundationEssentials
import GestureEngine
import GesturePadSettings
import GesturePadSystem
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Carries out one `run` rule: the I/O shell of its `RunHookSchedule` (a process per matching
/// event, at most `concurrency` at once, at most `queueLimit` waiting, each killed with its
/// whole process group at its deadline). The processes are started and waited for on the
/// rule's own `WorkerExecutor`, never on the cooperative pool; the deadlines are timers on the
/// worker's clock. Their stdout and stderr go to the rule's `HookOutput`; the server's own
/// messages about them go through a `HookEventLog`. `submit` only takes a lock.
final class RunHookRunner: Sendable {
    struct Job: Sendable {
        var payload: HookPayload
        var time: WallTime
    }

    private struct State {
        var schedule: RunHookSchedule<Job>
        /// Each running process (its pid is its process group's), once spawned.
        var children: [Int: ChildProcess] = [:]
        var failed = 0
    }

    let name: String
    let options: RunHookOptions
    let output: HookOutput
    let events: HookEventLog
    private let logger: Logger
    private let worker: WorkerExecutor
    private let state: Mutex<State>
    /// Signalled whenever a process ends: `close` waits on it for the schedule to drain.
    private let ended = DispatchSemaphore(value: 0)

    init(
        name: String, options: RunHookOptions, outputLimits: HookOutputLimits, logger: Logger,
        clock: any WorkerClock = SystemWorkerClock()
    ) {
        self.name = name
        self.options = options
        var logger = logger
        logger[metadataKey: "hook.name"] = "\(name)"
        self.logger = logger
        output = HookOutput(
            label: "run hook output", threadName: "gpo-\(name)", limits: outputLimits, logger: logger, clock: clock)
        events = HookEventLog(label: "run hook messages", logger: logger, clock: clock)
        // The rule's name in `top -H` (cut to the kernel's 15 bytes): one thread per rule.
        worker = WorkerExecutor(name: "gpr-\(name)", clock: clock)
        let schedule = RunHookSchedule<Job>(
            concurrency: options.concurrency, queueLimit: options.queueLimit,
            timeoutMilliseconds: (options.timeout.isFinite ? min(max(options.timeout, 0), 1e9) : 1e9) * 1_000)
        state = Mutex(State(schedule: schedule))
    }

    /// Counters for tests and the shutdown summary.
    var statistics: (started: Int, dropped: Int, timedOut: Int, failed: Int) {
        state.withLock { ($0.schedule.started, $0.schedule.dropped, $0.schedule.timedOut, $0.failed) }
    }

    /// Queues a matching event. Never blocks.
    func submit(_ payload: HookPayload, time: WallTime) {
        let now = worker.clock.now
        let job = Job(payload: payload, time: time)
        if let start = state.withLock({ $0.schedule.submit(job, at: now) }) { launch(start) }
    }

    private func launch(_ start: RunHookSchedule<Job>.Start) {
        Task(executorPreference: worker) { await self.execute(start) }
    }

    private enum Outcome: Sendable {
        case exited(ChildProcess.Exit)
        case failedToStart(SystemCallError)
    }

    /// Runs one process to its end, racing its deadline timer; then starts the next queued one.
    private func execute(_ start: RunHookSchedule<Job>.Start) async {
        let outcome = await withTaskGroup(of: Outcome?.self) { group in
            group.addTask { await self.spawn(start) }
            group.addTask {
                // The deadline: kill whatever the schedule says is overdue (this process).
                guard (try? await self.worker.sleep(until: start.deadline)) != nil else { return nil }
                self.expire()
                return nil
            }
            var result: Outcome?
            for await value in group {
                guard let value else { continue }
                result = value
                group.cancelAll()
            }
            return result ?? .failedToStart(SystemCallError(errno: ECANCELED))
        }
        let now = worker.clock.now
        // The process is forgotten already (`spawnOnce`, before it was reaped).
        let (finished, drops) = state.withLock { s in
            let finished = s.schedule.finished(start.id, at: now)
            if case .failedToStart = outcome, finished.killed == nil { s.failed += 1 }
            if case .exited(let status) = outcome, !status.isSuccess, finished.killed == nil { s.failed += 1 }
            return (finished, s.schedule.takeDropReport())
        }
        report(outcome, killed: finished.killed)
        if let drops {
            events.log(
                .warning, "run hook busy: events dropped (queue full)", metadata: ["hook.dropped.total": "\(drops)"], on: worker)
        }
        ended.signal()
        if let next = finished.next { launch(next) }
    }

    private func report(_ outcome: Outcome, killed: RunHookSchedule<Job>.Kill?) {
        switch killed {
        case .timeout:
            logger.warning("run hook timed out; its process group was killed", metadata: ["hook.timeout": "\(options.timeout)"])
            return
        case .shutdown:
            logger.notice("run hook still running at shutdown; its process group was killed")
            return
        case nil:
            break
        }
        switch outcome {
        case .exited(let status) where status.isSuccess:
            logger.debug("run hook finished", metadata: ["hook.status": "\(status)"])
        case .exited(let status):
            events.log(.warning, "run hook failed", metadata: ["hook.status": "\(status)"], on: worker)
        case .failedToStart(let error):
            events.log(
                .error, "run hook could not run", metadata: ["hook.program": "\(options.program)", "error": "\(error)"],
                on: worker)
        }
    }

    /// Kills the processes the schedule finds overdue now.
    private func expire() {
        let now = worker.clock.now
        let children = state.withLock { s in s.schedule.expire(at: now).compactMap { s.children[$0] } }
        for child in children { child.killGroup() }
    }

    /// Starts the process (again, after a short wait, while its script is busy being
    /// written: `SpawnRetry`), writes its event to stdin and waits for its exit.
    private func spawn(_ start: RunHookSchedule<Job>.Start) async -> Outcome {
        var retry = SpawnRetry()
        while true {
            let outcome = await spawnOnce(start)
            guard case .failedToStart(let error) = outcome, !state.withLock({ $0.schedule.isKilled(start.id) }),
                let again = retry.failed(error, at: worker.clock.now),
                (try? await worker.sleep(until: again)) != nil
            else { return outcome }
        }
    }

    private func spawnOnce(_ start: RunHookSchedule<Job>.Start) async -> Outcome {
        let job = start.job
        let arguments = options.arguments.map { job.payload.expand($0) }
        var input: [UInt8] = []
        job.payload.appendJSON(time: job.time, into: &input)
        input.append(UInt8(ascii: "\n"))
        let child: ChildProcess
        do {
            let stdin = try PipeInput(holding: input)
            defer { stdin.closeReadEnd() }
            child = try ChildProcess.start(
                HookLaunch.launch(
                    options.program, arguments: arguments, in: options.directory,
                    variables: job.payload.variables(time: job.time), standardInput: stdin.readEnd, output: output))
        } catch {
            return .failedToStart(error)
        }
        let overdue = state.withLock { s in
            s.children[start.id] = child
            return s.schedule.isKilled(start.id)
        }
        if overdue { child.killGroup() }
        await HookLaunch.end(of: child)
        // Forgotten by the deadline's and the shutdown's kills first, then reaped: no kill
        // can reach a process that reused its id.
        state.withLock { $0.children[start.id] = nil }
        return .exited(child.waitForExit())
    }

    /// The worker's clock was advanced (a manual clock): its timers are looked at again.
    func clockAdvanced() { worker.poke() }

    /// Stops taking events (queued ones still run).
    func requestClose() {
        state.withLock { $0.schedule.close() }
    }

    /// Stops taking events, lets running and queued processes finish for up to `timeout`
    /// seconds, then kills what is left (process groups included) and waits (bounded) for
    /// them to be reaped. Waits on a semaphore signalled at each process end; never polls.
    func close(timeout: Double) {
        requestClose()
        let deadline = DispatchTime.now() + max(0, min(timeout, 3_600))
        while !state.withLock({ $0.schedule.isIdle }) {
            guard ended.wait(timeout: deadline) == .success else { break }
        }
        let left = state.withLock { s in s.schedule.abandon().compactMap { s.children[$0] } }
        for child in left { child.killGroup() }
        // Killed processes end at once; their last output is read by `output.close()`.
        let reaped = DispatchTime.now() + 1
        while !state.withLock({ $0.schedule.isIdle }) {
            guard ended.wait(timeout: reaped) == .success else { break }
        }
        output.close()
        events.finish()
        worker.stop()
        let stats = statistics
        let suppressed = output.statistics.suppressed
        if stats.dropped > 0 || stats.timedOut > 0 || stats.failed > 0 || suppressed > 0 {
            logger.notice(
                "run hook summary",
                metadata: [
                    "hook.started": "\(stats.started)", "hook.dropped": "\(stats.dropped)",
                    "hook.timedOut": "\(stats.timedOut)", "hook.failed": "\(stats.failed)",
                    "hook.output.suppressed": "\(suppressed)",
                    "hook.messages.suppressed": "\(events.statistics.suppressed)",
                ])
        }
    }
}
