/// When each frame of touches is written to the touchpad (pure; `t` is the page's clock, `now`
/// and the due times the worker's monotonic clock, all in ms).
///
/// libinput judges finger motion against the kernel's event times, which are the times the
/// frames are written: frames written microseconds apart that carry milliseconds of travel look
/// like a jump and are discarded, and speed (hence acceleration) comes out wrong. So a frame is
/// written no sooner after the one before it than the page's `t` says it came after it:
/// - a frame is written no sooner after the one before it than `catchUp` (¾) of their `t`
///   distance: libinput takes that as a slightly faster finger, never a jump;
/// - so a frame whose place on that timeline has passed (the common case: one move per
///   message, arriving as fast as the finger made it) is written at once — and so is one that
///   follows a late frame by less than its `t` distance but more than ¾ of it: a frame the
///   network or a busy machine held back by a millisecond or two does not hold back the next
///   (at 60 Hz ¾ leaves 4 ms of slack; spacing by the whole distance passed each late frame's
///   delay on to the frames after it, which doubled the tail: BENCHMARKS.md);
/// - frames that arrive together (a burst the network held back, two messages read in one
///   go) are played at ¾ of their `t` distance, so the delay the burst brought is made up
///   within a few frames instead of staying for the rest of the stroke;
/// - no frame is planned more than `maxHold` (100 ms) ahead: a batch that would end later is
///   played faster to end there;
/// - another connection's frame is not spaced from the last one (other fingers).
/// (`TouchpadFrameQueue` keeps the plan's spacing relative to when frames are really written.)
struct FramePacer: Sendable {
    /// The longest a frame waits before it is written.
    static let defaultMaxHold = 100.0
    /// The share of the `t` distance kept between frames at least (a faster finger for
    /// libinput, not a jump).
    static let catchUp = 0.75

    let maxHold: Double
    /// The last frame planned: its connection, `t` and due time.
    private var lastOwner: Int? = nil
    private var lastT = 0.0
    private(set) var lastDue = -Double.infinity

    init(maxHold: Double = FramePacer.defaultMaxHold) {
        self.maxHold = max(maxHold, 0)
    }

    /// Plans the frames of one batch that arrived at `now`: `times` holds their `t` in order
    /// and is replaced by their due times (non-decreasing, none later than `now + maxHold`);
    /// `owners` holds their connections.
    mutating func plan(_ times: inout [Double], owners: [Int], arrivedAt now: Double) {
        for index in times.indices {
            let t = times[index]
            var due = max(now, lastDue)
            if owners[index] == lastOwner {
                let gap = t - lastT
                let spacing = gap.isFinite && gap > 0 ? gap * Self.catchUp : 0
                due = max(due, lastDue + spacing)
            }
            times[index] = due
            lastOwner = owners[index]
            lastT = t
            lastDue = due
        }
        compress(&times, now: now)
    }

    /// Forgets the last frame (the frames waiting were dropped): the next one is written at once.
    mutating func reset() {
        lastOwner = nil
        lastDue = -.infinity
    }

    /// The frames planned after `last` were dropped (a connection's touch cancelled while
    /// another's frames wait): the next frame is planned after `last` — the frame that now
    /// ends the plan, its connection, `t` and due time — or at once when none is left.
    mutating func rewind(to last: (owner: Int, t: Double, due: Double)?) {
        guard let last else { return reset() }
        lastOwner = last.owner
        lastT = last.t
        lastDue = last.due
    }

    /// Squeezes the batch's due times into `now + maxHold`, keeping their order and proportions.
    private mutating func compress(_ dues: inout [Double], now: Double) {
        guard let firstDue = dues.first, let last = dues.last else { return }
        let limit = now + maxHold
        guard last > limit else { return }
        let first = min(firstDue, limit)
        let span = last - first
        for index in dues.indices {
            let fraction = span > 0 ? (dues[index] - first) / span : 1
            dues[index] = min(first + max(fraction, 0) * (limit - first), limit)
        }
        lastDue = limit
    }
}
