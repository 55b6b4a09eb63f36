import Testing

@testable import GesturePadSinks

/// The pure limiter on a virtual clock: instants are values, nothing sleeps.
@Suite struct HookOutputLimiterTests {
    typealias Admission = HookOutputLimiter.Admission
    /// The virtual clock's origin, ms (any value: the limiter only takes differences).
    private let t0 = 1_000_000.0

    /// The clock's milliseconds `seconds` after the origin.
    private func at(_ seconds: Double) -> Double { t0 + seconds * 1_000 }

    private func limiter(rate: Double = 20, burst: Int = 100, bytes: Int = 1 << 20) -> HookOutputLimiter {
        var limits = HookOutputLimits()
        limits.linesPerSecond = rate
        limits.burst = burst
        limits.bytesPerSecond = bytes
        limits.byteBurst = bytes
        return HookOutputLimiter(limits: limits)
    }

    /// The documented defaults: 20 lines/s, 100 at once, 1,024 bytes a line, 1 MiB/s read.
    @Test func defaults() {
        let limits = HookOutputLimits()
        #expect(limits.linesPerSecond == 20 && limits.burst == 100 && limits.maxLineBytes == 1_024)
        #expect(limits.bytesPerSecond == 1 << 20 && limits.byteBurst == 1 << 20)
    }

    /// Lines pass while the bucket holds tokens; the rest of a chunk is suppressed, and the
    /// suppression lasts until the bucket is full again (burst / rate seconds).
    @Test func burstThenSuppression() {
        var l = limiter()
        #expect(l.admit(lines: 60, at: at(0)) == Admission(note: nil, log: 60, wake: nil))
        let dry = l.admit(lines: 50, at: at(0))
        #expect(dry.log == 40 && dry.note == nil)
        #expect(dry.wake == at(5))
        #expect(l.wake == at(5))
        #expect(l.loggedLines == 100 && l.suppressedLines == 10)
    }

    /// While suppressing, lines are only counted: no note per line, no line logged.
    @Test func suppressedLinesAreCountedSilently() {
        var l = limiter()
        _ = l.admit(lines: 150, at: at(0))
        for i in 1...1_000 {
            #expect(l.admit(lines: 3, at: at(Double(i) * 0.004)) == Admission(note: nil, log: 0, wake: nil))
        }
        #expect(l.suppressedLines == 50 + 3_000)
    }

    /// When output is admitted again, one note with the count comes first, then the lines.
    @Test func noteWhenAdmittedAgain() {
        var l = limiter()
        _ = l.admit(lines: 130, at: at(0))
        _ = l.admit(lines: 70, at: at(4.999))
        #expect(l.admit(lines: 5, at: at(5)) == Admission(note: 100, log: 5, wake: nil))
        // The note is given once: the following lines come without one.
        #expect(l.admit(lines: 5, at: at(5.1)) == Admission(note: nil, log: 5, wake: nil))
    }

    /// The wake-up gives the note when no line comes to carry it; early or repeated calls
    /// give nothing, and lines after it come without a second note.
    @Test func expireGivesTheNoteOnce() {
        var l = limiter()
        _ = l.admit(lines: 120, at: at(0))
        #expect(l.expire(at: at(4.9)) == nil)
        #expect(l.expire(at: at(5)) == 20)
        #expect(l.wake == nil)
        #expect(l.expire(at: at(6)) == nil)
        #expect(l.admit(lines: 1, at: at(6)) == Admission(note: nil, log: 1, wake: nil))
    }

    /// The hook's end gives the note of what is suppressed so far; the suppression runs its
    /// course (a restarted process does not get a fresh burst), with no second note.
    @Test func finishGivesTheNoteAndKeepsThePause() {
        var l = limiter()
        #expect(l.finish(at: at(0)) == nil)
        _ = l.admit(lines: 107, at: at(0))
        #expect(l.finish(at: at(1)) == 7)
        #expect(l.finish(at: at(1)) == nil)
        #expect(l.admit(lines: 4, at: at(2)) == Admission(note: nil, log: 0, wake: nil))
        #expect(l.expire(at: at(5)) == 4)
        _ = l.admit(lines: 150, at: at(10))
        #expect(l.finish(at: at(16)) == 50)
        #expect(l.admit(lines: 100, at: at(16)) == Admission(note: nil, log: 100, wake: nil))
    }

    /// Tokens refill at the rate: after 1 s of quiet, 20 more lines pass.
    @Test func refillAtTheRate() {
        var l = limiter()
        _ = l.admit(lines: 100, at: at(0))
        #expect(l.admit(lines: 0, at: at(0.5)) == Admission(note: nil, log: 0, wake: nil))
        let later = l.admit(lines: 25, at: at(1))
        #expect(later.log == 20)
        #expect(later.wake == at(6))  // empty again: a full refill takes 5 s
    }

    /// An endless flood, 1,000 lines every 10 ms for 60 virtual seconds: what is logged stays
    /// within burst + rate × time, one note per pause (every 5 s), and every line is counted.
    @Test func endlessFloodIsBounded() {
        var l = limiter()
        var logged = 0
        var notes = 0
        var sent = 0
        for step in 0..<6_000 {
            let now = at(Double(step) * 0.01)
            if l.expire(at: now) != nil { notes += 1 }
            let admission = l.admit(lines: 1_000, at: now)
            sent += 1_000
            logged += admission.log
            if admission.note != nil { notes += 1 }
        }
        #expect(logged <= 100 + 20 * 60)
        #expect(logged >= 1_000)  // a flood does not silence the hook for good
        #expect(notes <= 60 / 5 + 1)
        #expect(logged + l.suppressedLines == sent)
        #expect(l.loggedLines == logged)
    }

    /// Reading within the byte bucket goes on; beyond it, reading pauses until the debt is
    /// repaid at the byte rate.
    @Test func bytePace() {
        var l = limiter(bytes: 1_000)
        #expect(l.read(bytes: 600, at: at(0)) == .goOn)
        #expect(l.read(bytes: 400, at: at(0)) == .goOn)
        #expect(l.read(bytes: 500, at: at(0)) == .pause(until: at(0.5)))
        #expect(l.read(bytes: 100, at: at(0.75)) == .goOn)  // refilled 750, owed 500, took 100
        #expect(l.read(bytes: 2_150, at: at(0.75)) == .pause(until: at(2.75)))
    }

    /// An endless flood read at the pace: the bytes read over 10 virtual seconds stay within
    /// burst + rate × time, whatever the chunk size.
    @Test func pacedReadingIsBounded() {
        var l = limiter(bytes: 1 << 20)
        var now = at(0)
        var read = 0
        while now < at(10) {
            read += 65_536
            if case .pause(let until) = l.read(bytes: 65_536, at: now) { now = until }
        }
        #expect(read <= (1 << 20) * 11 + 65_536)
        #expect(read >= (1 << 20) * 10)
    }

    /// A clock that steps back (or odd limits) never refills, traps, or logs more than burst.
    @Test func hostileTimesAndLimits() {
        var l = limiter()
        _ = l.admit(lines: 50, at: at(10))
        #expect(l.admit(lines: 100, at: at(0)).log == 50)
        #expect(l.read(bytes: 1 << 20, at: at(10)) == .goOn)
        #expect(l.read(bytes: 10, at: at(0)) != .goOn)
        var limits = HookOutputLimits()
        limits.linesPerSecond = -.infinity
        limits.burst = 0
        limits.bytesPerSecond = 0
        var odd = HookOutputLimiter(limits: limits)
        #expect(odd.admit(lines: 5, at: at(0)).log == 1)
        #expect(odd.read(bytes: Int.max / 2, at: at(0)) != .goOn)
    }
}
