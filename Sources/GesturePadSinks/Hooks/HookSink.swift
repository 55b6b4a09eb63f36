import Dispatch
import FoundationEssentials
import GestureControl
import GestureEngine
import GesturePadSettings
import GesturePadSystem
import GestureProtocol
import Logging
import Synchronization

/// The user's hook rules as a `GestureSink`: each event is matched against every rule on the
/// service thread (a few comparisons) and handed to that rule's runner, which does everything
/// else — formatting, processes, waiting — on its own `WorkerExecutor`. Nothing here blocks.
/// A configuration reload replaces the rules (`replaceRules`).
public final class HookSink: GestureSink, HookRuleHolder {
    enum Runner: Sendable {
        case run(RunHookRunner)
        case pipe(PipeHookRunner)
    }

    typealias Entry = (rule: HookRule, runner: Runner)

    /// The rules and their runners; replaced whole by a reload.
    private let entries: Mutex<[Entry]>
    private let closeTimeout: Double
    /// Rules a reload removed, still finishing on threads of their own.
    private let retiring = DispatchGroup()
    private let outputLimits: HookOutputLimits
    private let logger: Logger
    private let clock: any WorkerClock

    /// The rules matched now, in order.
    var rules: [Entry] { entries.withLock { $0 } }

    /// Builds the runners and starts the `pipe` processes.
    /// - Parameters:
    ///   - closeTimeout: seconds `close()` waits for hooks to finish.
    ///   - outputLimits: the limits on each rule's output (stdout and stderr of its processes).
    public convenience init(
        rules: [HookRule], logger: Logger, closeTimeout: Double = 2, outputLimits: HookOutputLimits = HookOutputLimits()
    ) {
        self.init(
            rules: rules, logger: logger, closeTimeout: closeTimeout, outputLimits: outputLimits, clock: SystemWorkerClock())
    }

    /// The same on `clock`: timeouts, restart backoffs and limits follow it (tests pass a
    /// manual clock and call `clockAdvanced()` after advancing it).
    init(rules: [HookRule], logger: Logger, closeTimeout: Double, outputLimits: HookOutputLimits, clock: any WorkerClock) {
        self.closeTimeout = closeTimeout
        self.outputLimits = outputLimits
        self.logger = logger
        self.clock = clock
        self.entries = Mutex([])
        let made = rules.map { makeEntry($0) }
        entries.withLock { $0 = made }
    }

    private func makeEntry(_ rule: HookRule) -> Entry {
        switch rule.action {
        case .run(let options):
            let runner = RunHookRunner(
                name: rule.name, options: options, outputLimits: outputLimits, logger: logger, clock: clock)
            return (rule, .run(runner))
        case .pipe(let options):
            let runner = PipeHookRunner(
                name: rule.name, options: options, outputLimits: outputLimits, logger: logger, clock: clock)
            runner.start()
            return (rule, .pipe(runner))
        }
    }

    public func receive(_ event: GestureEvent, session: String) {
        submit(.gesture(event, session: session)) { $0.matches(event, session: session) }
    }

    public func receive(_ event: MediaEvent) {
        submit(.media(event)) { $0.matches(event) }
    }

    /// Hands `payload` to the runner of every rule `matches` takes, with the time the first
    /// match was seen (the clock is read only when a rule matches).
    private func submit(_ payload: @autoclosure () -> HookPayload, where matches: (HookRule) -> Bool) {
        entries.withLock { entries in
            var time: WallTime?
            for (rule, runner) in entries where matches(rule) {
                let now = time ?? .now()
                time = now
                switch runner {
                case .run(let r): r.submit(payload(), time: now)
                case .pipe(let p): p.submit(payload(), time: now)
                }
            }
        }
    }

    public func replaceRules(_ rules: [HookRule]) {
        let leaving = entries.withLock { current in
            var left = current
            var kept: [Entry] = []
            for rule in rules {
                if let index = left.firstIndex(where: { $0.rule == rule }) {
                    kept.append(left.remove(at: index))
                } else {
                    kept.append(makeEntry(rule))
                }
            }
            current = kept
            return left.map(\.runner)
        }
        guard !leaving.isEmpty else { return }
        // The old runners finish what they queued, then stop, off the caller's thread; `close()`
        // waits for them too.
        Self.requestClose(leaving)
        let timeout = closeTimeout
        let retiring = retiring
        retiring.enter()
        SystemThread.detachNewThread(name: "gp-hook-retire") {
            Self.close(leaving, timeout: timeout)
            retiring.leave()
        }
    }

    public func session(_ session: String, open: Bool) {}

    /// Waits up to `timeout` seconds in all until every `pipe` rule's first process has
    /// started or failed to: true when they all started. Only for tests
    /// (`serve --test-wait-for-hooks`): the server never waits for a hook.
    public func waitForPipes(timeout: Double) -> Bool {
        let deadline = MonotonicClock.nowMilliseconds() + timeout * 1_000
        for (_, runner) in rules {
            guard case .pipe(let pipe) = runner else { continue }
            let left = max(0, deadline - MonotonicClock.nowMilliseconds()) / 1_000
            guard pipe.waitForFirstStart(timeout: left) else { return false }
        }
        return true
    }

    /// The clock was advanced (a manual clock in tests): the rules' workers look at it again.
    func clockAdvanced() {
        for (_, runner) in rules {
            switch runner {
            case .run(let r): r.clockAdvanced()
            case .pipe(let p): p.clockAdvanced()
            }
        }
    }

    public func reopen() {}

    /// Stops every rule at once (pipes get EOF, queues stop filling), then waits for them — and
    /// for rules a reload removed that are still finishing — against one shared deadline, so
    /// shutdown takes at most about `closeTimeout` in all.
    public func close() {
        let runners = rules.map(\.runner)
        Self.requestClose(runners)
        let deadline = DispatchTime.now() + closeTimeout
        Self.close(runners, timeout: closeTimeout)
        _ = retiring.wait(timeout: deadline)
    }

    private static func requestClose(_ runners: [Runner]) {
        for runner in runners {
            switch runner {
            case .run(let r): r.requestClose()
            case .pipe(let p): p.requestClose()
            }
        }
    }

    /// Closes `runners` one after the other against one deadline, `timeout` seconds of the
    /// monotonic clock from now (a real wait for processes and threads to end: no virtual clock).
    private static func close(_ runners: [Runner], timeout: Double) {
        let deadline = MonotonicClock.nowMilliseconds() + timeout * 1_000
        for runner in runners {
            let left = max(0, deadline - MonotonicClock.nowMilliseconds()) / 1_000
            switch runner {
            case .run(let r): r.close(timeout: left)
            case .pipe(let p): p.close(timeout: left)
            }
        }
    }
}
