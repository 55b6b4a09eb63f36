import Foundation
import GestureEngine
import Logging
import Subprocess
import Synchronization
import SystemPackage

/// Carries out one `pipe` rule: one long-lived process, started at launch, fed matching
/// events as JSON lines on its stdin. Restarted with backoff (0.1 s doubling to 5 s; reset
/// after 10 s of life) when it dies. Its stdout and stderr go to the rule's `HookOutput`.
/// `submit` only touches a bounded `PipeQueue` under a lock.
final class PipeHookRunner: Sendable {
    private struct State {
        var queue: PipeQueue
        var doorbell: AsyncStream<Void>.Continuation?
        var closing = false
        var starts = 0
        var reportedLoss = 0
        var pid: Int32?
        var supervisor: Task<Void, Never>?
        var closeWaited = false
    }

    let name: String
    let options: PipeHookOptions
    let output: HookOutput
    private let logger: Logger
    private let state: Mutex<State>
    private let stopped = DispatchSemaphore(value: 0)

    init(name: String, options: PipeHookOptions, outputLimits: HookOutputLimits, logger: Logger) {
        self.name = name
        self.options = options
        var logger = logger
        logger[metadataKey: "hook.name"] = "\(name)"
        self.logger = logger
        output = HookOutput(label: "pipe hook output", limits: outputLimits, logger: logger)
        state = Mutex(State(queue: PipeQueue(limit: options.queueLimit)))
    }

    /// Counters for tests: process starts, events coalesced, events dropped; the running pid.
    var statistics: (starts: Int, coalesced: Int, dropped: Int, pid: Int32?) {
        state.withLock { ($0.starts, $0.queue.coalesced, $0.queue.dropped, $0.pid) }
    }

    /// Starts the supervisor (the process and its restarts).
    func start() {
        let task = Task.detached { [self] in
            await supervise()
            stopped.signal()
        }
        state.withLock { $0.supervisor = task }
    }

    /// Queues a matching event. Never blocks.
    func submit(_ event: GestureEvent, session: String, time: WallTime) {
        state.withLock { s in
            guard !s.closing else { return }
            s.queue.push(PipeQueue.Item(event: event, session: session, time: time))
            s.doorbell?.yield()
        }
    }

    private func supervise() async {
        var delay = 0.1
        while !state.withLock({ $0.closing }) {
            let began = ContinuousClock.now
            await runOnce()
            guard !state.withLock({ $0.closing }) else { break }
            if ContinuousClock.now - began > .seconds(10) { delay = 0.1 }
            logger.warning("pipe hook exited; restarting", metadata: ["hook.restartIn": "\(delay)s"])
            do { try await Task.sleep(for: .seconds(delay)) } catch { break }
            delay = min(delay * 2, 5)
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
                s.pid = nil
            }
            ring.finish()
        }
        do {
            let result = try await Subprocess.run(
                HookLaunch.executable(options.program, in: options.directory), arguments: Arguments(options.arguments),
                environment: HookLaunch.environment([("GESTUREPAD_HOOK", name)]),
                workingDirectory: HookLaunch.workingDirectory(options.directory),
                platformOptions: HookLaunch.platformOptions, input: .inputWriter,
                output: .fileDescriptor(output.standardOutput, closeAfterSpawningProcess: false),
                error: .fileDescriptor(output.standardError, closeAfterSpawningProcess: false)
            ) { execution in
                state.withLock { $0.pid = execution.processIdentifier.value }
                logger.info("pipe hook started", metadata: ["hook.pid": "\(execution.processIdentifier.value)"])
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { await self.feed(execution.standardInputWriter, doorbell: doorbell, execution: execution) }
                    // The process is gone when it exits (closing its stdout or stdin is no sign:
                    // the output pipes outlive it, and the feeder handles stdin).
                    let pid = execution.processIdentifier.value
                    while !Task.isCancelled, !HookLaunch.hasExited(pid) {
                        try? await Task.sleep(for: .milliseconds(100))
                    }
                    ring.finish()
                    await group.waitForAll()
                }
                try? await execution.standardInputWriter.finish()
            }
            output.processEnded()
            logger.info("pipe hook ended", metadata: ["hook.status": "\(HookLaunch.describe(result.terminationStatus))"])
        } catch {
            output.processEnded()
            logger.error("pipe hook could not run", metadata: ["hook.program": "\(options.program)", "error": "\(error)"])
        }
    }

    /// Writes queued events until the doorbell is finished (process gone, or shutdown).
    private func feed(
        _ writer: StandardInputWriter, doorbell: AsyncStream<Void>,
        execution: Execution<CustomWriteInput, FileDescriptorOutput, FileDescriptorOutput>
    ) async {
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
                    GestureJSON.append(item.event, session: item.session, time: item.time, into: &buffer)
                    buffer.append(UInt8(ascii: "\n"))
                }
                do {
                    _ = try await writer.write(buffer)
                } catch {
                    // The process stopped reading (exited or closed stdin): these are lost,
                    // and a process that no longer reads is replaced.
                    let lost = batch.count
                    state.withLock { $0.queue.countDropped(lost) }
                    try? execution.send(signal: .kill, toProcessGroup: true)
                    return
                }
                batch.removeAll(keepingCapacity: true)
                reportLoss()
            }
            if closing { try? await writer.finish(); return }
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

    /// Stops taking events; the feeder writes what is queued, then closes stdin (EOF).
    func requestClose() {
        state.withLock { s in
            s.closing = true
            s.doorbell?.yield()
        }
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
        if let task, stopped.wait(timeout: .now() + timeout) == .timedOut {
            task.cancel()
            _ = stopped.wait(timeout: .now() + 1)
        }
        output.close()
    }
}
