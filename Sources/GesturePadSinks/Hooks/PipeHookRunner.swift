import Dispatch
import FoundationEssentials
import GestureEngine
import GesturePadSettings
import GesturePadSystem
import Logging
import Synchronization

/// Carries out one `pipe` rule: one long-lived process, started at launch, fed matching
/// events as JSON lines on its stdin. Restarted with backoff (`RestartBackoff`: 0.1 s doubling
/// to 5 s; reset after 10 s of life) when it dies. Everything runs on the rule's own
/// `WorkerExecutor` (never on the cooperative pool); the backoff is a timer on its clock, and
/// the process's exit is waited for, not polled. Its stdout and stderr go to the rule's
/// `HookOutput`; the server's own messages about it go through a `HookEventLog`.
/// `submit` only touches a bounded `PipeQueue` under a lock.
final class PipeHookRunner: Sendable {
    private struct State {
        var queue: PipeQueue
        var doorbell: AsyncStream<Void>.Continuation?
        var closing = false
        var starts = 0
        var reportedLoss = 0
        var child: ChildProcess?
        var supervisor: Task<Void, Never>?
        /// The supervisor is waiting out the backoff (a close may cancel it at once).
        var inBackoff = false
        var closeWaited = false
        /// How the first process's start went: true started, false could not (nil: not yet).
        var firstStarted: Bool?
    }

    let name: String
    let options: PipeHookOptions
    let output: HookOutput
    let events: HookEventLog
    private let logger: Logger
    private let worker: WorkerExecutor
    private let state: Mutex<State>
    private let stopped = DispatchSemaphore(value: 0)
    /// Signalled once the first process has started, or failed to (`waitForFirstStart`).
    private let firstStart = DispatchSemaphore(value: 0)

    init(
        name: String, options: PipeHookOptions, outputLimits: HookOutputLimits, logger: Logger,
        clock: any WorkerClock = SystemWorkerClock()
    ) {
        self.name = name
        self.options = options
        var logger = logger
        logger[metadataKey: "hook.name"] = "\(name)"
        self.logger = logger
        output = HookOutput(
            label: "pipe hook output", threadName: "gpo-\(name)", limits: outputLimits, logger: logger, clock: clock)
        events = HookEventLog(label: "pipe hook messages", logger: logger, clock: clock)
        // The rule's name in `top -H` (cut to the kernel's 15 bytes): one thread per rule.
        worker = WorkerExecutor(name: "gpp-\(name)", clock: clock)
        state = Mutex(State(queue: PipeQueue(limit: options.queueLimit)))
    }

    /// Counters for tests: process starts, events coalesced, events dropped; the running pid.
    var statistics: (starts: Int, coalesced: Int, dropped: Int, pid: Int32?) {
        state.withLock { ($0.starts, $0.queue.coalesced, $0.queue.dropped, $0.child?.pid) }
    }

    /// Starts the supervisor (the process and its restarts) on the worker thread.
    func start() {
        let task = Task(executorPreference: worker) { [self] in
            await supervise()
            stopped.signal()
        }
        state.withLock { $0.supervisor = task }
    }

    /// Queues a matching event. Never blocks.
    func submit(_ payload: HookPayload, time: WallTime) {
        state.withLock { s in
            guard !s.closing else { return }
            s.queue.push(PipeQueue.Item(payload: payload, time: time))
            s.doorbell?.yield()
        }
    }

    private func supervise() async {
        var backoff = RestartBackoff()
        while !state.withLock({ $0.closing }) {
            let began = worker.clock.now
            await runOnce()
            let now = worker.clock.now
            let restart = backoff.exited(startedAt: began, at: now)
            let waiting = state.withLock { s -> Bool in
                s.inBackoff = !s.closing
                return s.inBackoff
            }
            guard waiting, !Task.isCancelled else { break }
            let delay = GestureJSON.numberText(max(0, restart - now) / 1_000)
            events.log(.warning, "pipe hook exited; restarting", metadata: ["hook.restartIn": "\(delay)s"], on: worker)
            let slept = (try? await worker.sleep(until: restart)) != nil
            state.withLock { $0.inBackoff = false }
            guard slept else { break }
        }
    }

    /// One life of the process.
    private func runOnce() async {
        let (doorbell, ring) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        state.withLock { s in
            s.doorbell = ring
            s.starts += 1
            if !s.queue.isEmpty { ring.yield() }
        }
        defer {
            state.withLock { s in
                s.doorbell = nil
                s.child = nil
            }
            ring.finish()
        }
        var retry = SpawnRetry()
        while true {
            do {
                try await runProcess(doorbell: doorbell, ring: ring)
            } catch {
                // A script busy being written (ETXTBSY) is tried again shortly, as a run hook's
                // is, before its start counts as failed; the backoff would wait much longer.
                if let again = retry.failed(error, at: worker.clock.now), !state.withLock({ $0.closing }),
                    (try? await worker.sleep(until: again)) != nil
                {
                    continue
                }
                output.processEnded()
                if state.withLock({ s -> Bool in
                    guard s.firstStarted == nil else { return false }
                    s.firstStarted = false
                    return true
                }) {
                    firstStart.signal()
                }
                events.log(
                    .error, "pipe hook could not run",
                    metadata: ["hook.program": "\(options.program)", "error": "\(error)"], on: worker)
            }
            return
        }
    }

    /// Starts the process, feeds it until it exits; throws when it could not start.
    private func runProcess(doorbell: AsyncStream<Void>, ring: AsyncStream<Void>.Continuation) async throws(SystemCallError) {
        let input = try PipeInput()
        let child: ChildProcess
        do {
            defer { input.closeReadEnd() }
            child = try ChildProcess.start(
                HookLaunch.launch(
                    options.program, arguments: options.arguments, in: options.directory,
                    variables: [("GESTUREPAD_HOOK", name)], standardInput: input.readEnd, output: output))
        }
        let first = state.withLock { s -> Bool in
            s.child = child
            guard s.firstStarted == nil else { return false }
            s.firstStarted = true
            return true
        }
        if first { firstStart.signal() }
        logger.info("pipe hook started", metadata: ["hook.pid": "\(child.pid)"])
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.feed(input, doorbell: doorbell, child: child) }
            // The process is gone when it exits (closing its stdout or stdin is no sign: the
            // output pipes outlive it, and the feeder handles stdin).
            await HookLaunch.end(of: child)
            input.stop()
            ring.finish()
            await group.waitForAll()
        }
        // The feeder is done and the close's kill looks here: forgotten, then reaped, so no
        // kill can reach a process that reused its id.
        state.withLock { $0.child = nil }
        let exit = child.waitForExit()
        input.finish()
        output.processEnded()
        logger.notice("pipe hook ended", metadata: ["hook.status": "\(exit)"])
    }

    /// Writes queued events until the doorbell is finished (process gone, or shutdown).
    private func feed(_ input: PipeInput, doorbell: AsyncStream<Void>, child: ChildProcess) async {
        var batch: [PipeQueue.Item] = []
        var buffer: [UInt8] = []
        var stream = doorbell.makeAsyncIterator()
        while true {
            let closing = state.withLock { s -> Bool in
                s.queue.take(into: &batch)
                return s.closing
            }
            if !batch.isEmpty {
                buffer.removeAll(keepingCapacity: true)
                for item in batch {
                    item.payload.appendJSON(time: item.time, into: &buffer)
                    buffer.append(UInt8(ascii: "\n"))
                }
                do {
                    try await input.write(buffer)
                } catch {
                    // The process stopped reading (exited or closed stdin): these are lost,
                    // and a process that no longer reads is replaced.
                    let lost = batch.count
                    state.withLock { $0.queue.countDropped(lost) }
                    child.killGroup()
                    return
                }
                batch.removeAll(keepingCapacity: true)
                reportLoss()
            }
            if closing {
                input.finish()
                return
            }
            guard await stream.next() != nil else {
                if state.withLock({ $0.closing }) { continue }  // drain once more, then finish
                return
            }
        }
    }

    private func reportLoss() {
        let (total, new) = state.withLock { s -> (Int, Int) in
            let total = s.queue.dropped + s.queue.coalesced
            defer { s.reportedLoss = total }
            return (total, total - s.reportedLoss)
        }
        if new > 0 {
            logger.notice("pipe hook falling behind: events coalesced or dropped", metadata: ["hook.lost.total": "\(total)"])
        }
    }

    /// Waits up to `timeout` seconds until the first process has started or failed to: true
    /// when it started. For tests that need the process running (`serve --test-wait-for-hooks`).
    func waitForFirstStart(timeout: Double) -> Bool {
        guard firstStart.wait(timeout: .now() + max(0, min(timeout, 60))) == .success else { return false }
        firstStart.signal()  // later waits return at once too
        return state.withLock { $0.firstStarted } == true
    }

    /// The worker's clock was advanced (a manual clock): its timers are looked at again.
    func clockAdvanced() { worker.poke() }

    /// Stops taking events; the feeder writes what is queued, then closes stdin (EOF). A
    /// supervisor waiting out a backoff stops at once.
    func requestClose() {
        let idle = state.withLock { s -> Task<Void, Never>? in
            s.closing = true
            s.doorbell?.yield()
            return s.inBackoff ? s.supervisor : nil
        }
        idle?.cancel()
    }

    /// Stops taking events, sends what is queued, closes stdin and waits up to `timeout`
    /// seconds for the process to exit; then kills its process group. Its output is read to
    /// the end and the last "suppressed" note given.
    func close(timeout: Double) {
        requestClose()
        let task = state.withLock { s -> Task<Void, Never>? in
            defer { s.closeWaited = true }
            return s.closeWaited ? nil : s.supervisor
        }
        if let task, stopped.wait(timeout: .now() + max(0, min(timeout, 3_600))) == .timedOut {
            task.cancel()
            state.withLock({ $0.child })?.killGroup()
            _ = stopped.wait(timeout: .now() + 1)
        }
        output.close()
        events.finish()
        worker.stop()
    }
}
