import Foundation
import GestureEngine
import Logging
import Subprocess
import Synchronization
import SystemPackage

/// Carries out one `run` rule: a process per matching event, at most `concurrency` at once,
/// at most `queueLimit` waiting (more are dropped and counted), each killed with its whole
/// process group after `timeout`. Their stdout and stderr go to the rule's `HookOutput`.
/// `submit` only takes a lock: it never waits for a process.
final class RunHookRunner: Sendable {
    struct Job: Sendable {
        var event: GestureEvent
        var session: String
        var time: WallTime
    }

    private struct State {
        var queue: [Job] = []
        var running = 0
        var dropped = 0
        var closing = false
        var started = 0
        var timedOut = 0
        var failed = 0
        var workers: [Int: Task<Void, Never>] = [:]
        var nextWorker = 0
    }

    let name: String
    let options: RunHookOptions
    let output: HookOutput
    private let logger: Logger
    private let state = Mutex(State())

    init(name: String, options: RunHookOptions, outputLimits: HookOutputLimits, logger: Logger) {
        self.name = name
        self.options = options
        var logger = logger
        logger[metadataKey: "hook.name"] = "\(name)"
        self.logger = logger
        output = HookOutput(label: "run hook output", limits: outputLimits, logger: logger)
    }

    /// Counters for tests and the shutdown summary.
    var statistics: (started: Int, dropped: Int, timedOut: Int, failed: Int) {
        state.withLock { ($0.started, $0.dropped, $0.timedOut, $0.failed) }
    }

    /// Queues a matching event. Never blocks.
    func submit(_ event: GestureEvent, session: String, time: WallTime) {
        let job = Job(event: event, session: session, time: time)
        state.withLock { s in
            guard !s.closing else { return }
            if s.running < options.concurrency {
                s.running += 1
                let id = s.nextWorker
                s.nextWorker += 1
                s.workers[id] = Task.detached { [self] in await self.work(first: job, worker: id) }
            } else if s.queue.count < options.queueLimit {
                s.queue.append(job)
            } else {
                s.dropped += 1
            }
        }
    }

    /// A worker: runs jobs until the queue is empty.
    private func work(first: Job, worker: Int) async {
        var job = first
        var reportedDrops = 0
        while true {
            await execute(job)
            let (next, drops): (Job?, Int) = state.withLock { s in
                let drops = s.dropped - reportedDrops
                if s.queue.isEmpty || Task.isCancelled {
                    s.running -= 1
                    s.workers[worker] = nil
                    return (nil, drops)
                }
                return (s.queue.removeFirst(), drops)
            }
            if drops > 0 {
                reportedDrops += drops
                logger.warning("run hook busy: events dropped (queue full)", metadata: ["hook.dropped.total": "\(reportedDrops)"])
            }
            guard let next else { return }
            job = next
        }
    }

    private enum Outcome: Sendable {
        case exited(TerminationStatus)
        case timedOut
    }

    /// Runs one process to its end or its timeout.
    private func execute(_ job: Job) async {
        let arguments = options.arguments.map { $0.expand(for: job.event) }
        var input: [UInt8] = []
        GestureJSON.append(job.event, session: job.session, time: job.time, into: &input)
        input.append(UInt8(ascii: "\n"))
        let payload = input
        let environment = HookLaunch.environment(HookLaunch.variables(for: job.event, session: job.session, time: job.time))
        let executable = HookLaunch.executable(options.program, in: options.directory)
        let directory = HookLaunch.workingDirectory(options.directory)
        let timeout = options.timeout
        let (stdout, stderr) = (output.standardOutput, output.standardError)
        state.withLock { $0.started += 1 }
        do {
            let outcome = try await withThrowingTaskGroup(of: Outcome.self) { group in
                group.addTask {
                    // stdin is written here rather than with `.array(…)`: a process that exits
                    // without reading makes that write fail (EPIPE), and swift-subprocess 1.0.2
                    // then leaves the pipe open and traps. Here the failure is caught and the
                    // pipe always closed.
                    let result = try await Subprocess.run(
                        executable, arguments: Arguments(arguments), environment: environment,
                        workingDirectory: directory,
                        platformOptions: HookLaunch.platformOptions, input: .inputWriter,
                        output: .fileDescriptor(stdout, closeAfterSpawningProcess: false),
                        error: .fileDescriptor(stderr, closeAfterSpawningProcess: false)
                    ) { execution in
                        let writer = execution.standardInputWriter
                        _ = try? await writer.write(payload)
                        try? await writer.finish()
                    }
                    return .exited(result.terminationStatus)
                }
                group.addTask {
                    try await Task.sleep(for: .seconds(timeout))
                    return .timedOut
                }
                // The first to finish wins; cancelling the other kills the process group
                // (teardown sequence) or stops the timer.
                let first = try await group.next() ?? .timedOut
                group.cancelAll()
                return first
            }
            switch outcome {
            case .exited(let status) where status.isSuccess:
                logger.debug("run hook finished", metadata: ["hook.status": "\(HookLaunch.describe(status))"])
            case .exited(let status):
                state.withLock { $0.failed += 1 }
                logger.warning("run hook failed", metadata: ["hook.status": "\(HookLaunch.describe(status))"])
            case .timedOut:
                state.withLock { $0.timedOut += 1 }
                logger.warning("run hook timed out; its process group was killed", metadata: ["hook.timeout": "\(timeout)"])
            }
        } catch {
            state.withLock { $0.failed += 1 }
            logger.error("run hook could not run", metadata: ["hook.program": "\(options.program)", "error": "\(error)"])
        }
    }

    /// Stops taking events, lets running and queued processes finish for up to `timeout`
    /// seconds, then kills what is left (process groups included).
    /// Stops taking events (queued ones still run).
    func requestClose() {
        state.withLock { $0.closing = true }
    }

    func close(timeout: Double) {
        requestClose()
        let deadline = Date().addingTimeInterval(timeout)
        while state.withLock({ $0.running > 0 }), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        let remaining = state.withLock { s -> [Task<Void, Never>] in
            s.queue.removeAll()
            return Array(s.workers.values)
        }
        for task in remaining { task.cancel() }
        // Cancelled processes get SIGKILL within 0.2 s (HookLaunch); their last output is read.
        let killed = Date().addingTimeInterval(0.3)
        while !remaining.isEmpty, state.withLock({ $0.running > 0 }), Date() < killed {
            Thread.sleep(forTimeInterval: 0.01)
        }
        output.close()
        let stats = statistics
        let suppressed = output.statistics.suppressed
        if stats.dropped > 0 || stats.timedOut > 0 || stats.failed > 0 || suppressed > 0 {
            logger.info(
                "run hook summary",
                metadata: [
                    "hook.started": "\(stats.started)", "hook.dropped": "\(stats.dropped)",
                    "hook.timedOut": "\(stats.timedOut)", "hook.failed": "\(stats.failed)",
                    "hook.output.suppressed": "\(suppressed)",
                ])
        }
    }
}
