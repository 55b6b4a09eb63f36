/// The limit on one hook's output: every line and every byte its processes write passes here.
/// Pure — the time comes in with each call, and each call returns what to do: how many lines
/// to log, which note to log first, when to read again, when to be woken. No clock, no timer.
///
/// ```
///            lines while tokens last
///   ┌──────────┐  bucket dry   ┌─────────────┐
///   │ passing  │ ────────────▶ │ suppressing │  lines only counted
///   └──────────┘ ◀──────────── └─────────────┘
///          bucket full again (burst / rate s later):
///          the note "suppressed N lines" first — at the next line,
///          at `expire(at:)` (the wake-up), or at `finish(at:)` (the hook's end)
/// ```
///
/// Lines: a token bucket of `linesPerSecond`, size `burst`. Suppressed lines take no tokens,
/// so a flood costs one pause of `burst / linesPerSecond` seconds, then the next burst.
/// Bytes: a second bucket (`bytesPerSecond`, size `byteBurst`) paces reading. A read may run
/// it into debt; the reader then pauses until the debt is repaid, so the hook's pipe fills
/// and the hook waits in `write(2)` instead of the server reading as fast as it writes.
///
/// Times are the worker clock's milliseconds.
struct HookOutputLimiter: Sendable {
    /// What to do with the lines that just arrived.
    struct Admission: Equatable, Sendable {
        /// Lines suppressed before these, to report first; `nil` when there is nothing to report.
        var note: Int?
        /// How many of the lines, from the first, to log; the others are suppressed.
        var log: Int
        /// When set, the limiter must be woken then with `expire(at:)`: the suppression that
        /// just began ends at that moment, and its note is due even if no line comes.
        var wake: Double?
    }

    /// When reading may go on.
    enum Pace: Equatable, Sendable {
        case goOn
        case pause(until: Double)
    }

    private enum State: Equatable, Sendable {
        case passing(tokens: Double, at: Double?)
        case suppressing(count: Int, until: Double)
    }

    let limits: HookOutputLimits
    private var state: State
    private var byteTokens: Double
    private var lastRead: Double?
    /// Every line logged and suppressed so far (statistics).
    private(set) var loggedLines = 0
    private(set) var suppressedLines = 0

    init(limits: HookOutputLimits = HookOutputLimits()) {
        self.limits = limits.sanitized
        state = .passing(tokens: Double(self.limits.burst), at: nil)
        byteTokens = Double(self.limits.byteBurst)
    }

    /// While suppressing: the moment the suppression ends (the note is due).
    var wake: Double? {
        if case .suppressing(_, let until) = state { until } else { nil }
    }

    /// `count` complete lines arrived at `now`.
    mutating func admit(lines count: Int, at now: Double) -> Admission {
        var admission = Admission(note: nil, log: 0, wake: nil)
        guard count > 0 else { return admission }
        if case .suppressing(let suppressed, let until) = state {
            guard now >= until else {
                state = .suppressing(count: suppressed + count, until: until)
                suppressedLines += count
                return admission
            }
            admission.note = suppressed > 0 ? suppressed : nil
            state = .passing(tokens: Double(limits.burst), at: now)
        }
        guard case .passing(var tokens, let last) = state else { return admission }
        if let last { tokens = min(Double(limits.burst), tokens + Self.seconds(now - last) * limits.linesPerSecond) }
        admission.log = min(count, Int(tokens.rounded(.down)))
        tokens -= Double(admission.log)
        loggedLines += admission.log
        let rest = count - admission.log
        if rest > 0 {
            let until = now + (Double(limits.burst) - tokens) / limits.linesPerSecond * 1_000
            state = .suppressing(count: rest, until: until)
            suppressedLines += rest
            admission.wake = until
        } else {
            state = .passing(tokens: tokens, at: max(now, last ?? now))
        }
        return admission
    }

    /// The wake-up: at or after the end of a suppression, its note (if any line was suppressed
    /// since the last note) and the bucket full again. Early or repeated calls return `nil`.
    mutating func expire(at now: Double) -> Int? {
        guard case .suppressing(let count, let until) = state, now >= until else { return nil }
        state = .passing(tokens: Double(limits.burst), at: now)
        return count > 0 ? count : nil
    }

    /// The hook's end (a `pipe` process exits, the server stops): the lines suppressed since
    /// the last note. The suppression itself runs its course, so a restarted process does not
    /// get a fresh burst at once.
    mutating func finish(at now: Double) -> Int? {
        guard case .suppressing(let count, let until) = state else { return nil }
        state = now >= until ? .passing(tokens: Double(limits.burst), at: now) : .suppressing(count: 0, until: until)
        return count > 0 ? count : nil
    }

    /// `bytes` were read at `now`: whether reading may go on at once.
    mutating func read(bytes: Int, at now: Double) -> Pace {
        if let lastRead {
            byteTokens = min(
                Double(limits.byteBurst), byteTokens + Self.seconds(now - lastRead) * Double(limits.bytesPerSecond))
        }
        lastRead = max(now, lastRead ?? now)
        byteTokens -= Double(bytes)
        guard byteTokens < 0 else { return .goOn }
        return .pause(until: now + min(3_600, -byteTokens / Double(limits.bytesPerSecond)) * 1_000)
    }

    /// Milliseconds as seconds; a negative span (time going back) counts as none.
    static func seconds(_ milliseconds: Double) -> Double {
        max(0, milliseconds / 1_000)
    }
}
