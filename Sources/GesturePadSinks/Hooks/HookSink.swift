import Foundation
import GestureEngine
import GesturePadSettings
import GestureProtocol
import Logging

/// The user's hook rules as a `GestureSink`: each event is matched against every rule on the
/// service thread (a few comparisons) and handed to that rule's runner, which does everything
/// else — formatting, processes, waiting — on its own `WorkerThread`. Nothing here blocks.
public final class HookSink: GestureSink {
    enum Runner: Sendable {
        case run(RunHookRunner)
        case pipe(PipeHookRunner)
    }

    let rules: [(rule: HookRule, runner: Runner)]
    private let closeTimeout: Double

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
        HookLaunch.ignoreBrokenPipes()
        self.closeTimeout = closeTimeout
        self.rules = rules.map { rule in
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
    }

    public func receive(_ event: GestureEvent, session: String) {
        var time: WallTime?
        for (rule, runner) in rules where rule.matches(event, session: session) {
            let now = time ?? .now()
            time = now
            switch runner {
            case .run(let r): r.submit(event, session: session, time: now)
            case .pipe(let p): p.submit(event, session: session, time: now)
            }
        }
    }

    public func session(_ session: String, open: Bool) {}

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

    /// Stops every rule at once (pipes get EOF, queues stop filling), then waits for them
    /// against one shared deadline, so shutdown takes at most about `closeTimeout` in all.
    public func close() {
        for (_, runner) in rules {
            switch runner {
            case .run(let r): r.requestClose()
            case .pipe(let p): p.requestClose()
            }
        }
        let deadline = Date().addingTimeInterval(closeTimeout)
        for (_, runner) in rules {
            let left = max(0, deadline.timeIntervalSinceNow)
            switch runner {
            case .run(let r): r.close(timeout: left)
            case .pipe(let p): p.close(timeout: left)
            }
        }
    }
}
