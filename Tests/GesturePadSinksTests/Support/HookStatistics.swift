// Test support: what each hook rule of a sink has done, read from its runners.

@testable import GesturePadSinks

/// What one hook rule has done so far.
struct HookStatistics: Sendable, Hashable {
    /// Processes started (`run`: one per event; `pipe`: one per (re)start).
    var started: Int
    /// Events dropped (queue full, or lost with a dying `pipe` process).
    var dropped: Int
    /// `pipe`: `changed` events merged into a queued one.
    var coalesced: Int
    /// `run`: processes killed at their timeout.
    var timedOut: Int
    /// `run`: processes that exited non-zero, died of a signal, or could not start.
    var failed: Int
    /// `pipe`: the running process, if any.
    var pid: Int32?
    /// Lines of the processes' stdout and stderr logged, and suppressed by the output limit.
    var outputLogged = 0
    var outputSuppressed = 0
}

extension HookSink {
    /// Per-rule counters, in rule order (what the tests check).
    var statistics: [HookStatistics] {
        rules.map { _, runner in
            switch runner {
            case .run(let r):
                let s = r.statistics
                let o = r.output.statistics
                return HookStatistics(
                    started: s.started, dropped: s.dropped, coalesced: 0, timedOut: s.timedOut, failed: s.failed, pid: nil,
                    outputLogged: o.logged, outputSuppressed: o.suppressed)
            case .pipe(let p):
                let s = p.statistics
                let o = p.output.statistics
                return HookStatistics(
                    started: s.starts, dropped: s.dropped, coalesced: s.coalesced, timedOut: 0, failed: 0, pid: s.pid,
                    outputLogged: o.logged, outputSuppressed: o.suppressed)
            }
        }
    }
}
