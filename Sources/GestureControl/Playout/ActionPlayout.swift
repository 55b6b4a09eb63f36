/// When a connection's host actions are carried out (pure; `t` is the page's clock, `now` and
/// the due times the server's monotonic clock, all ms): one pacer for every backend
/// (docs/control.md "Playout: smooth on a real Wi-Fi").
///
/// A Wi-Fi delivers frames late and in bursts. Carried out as they arrive, a stroke stands
/// still while its frames are held and then jumps. So the actions of each input are kept in
/// order, in groups stamped with the input's `t`, and a group is due:
/// - no sooner than its `t` plus the link's fastest `arrival − t` plus a playout delay: the
///   lateness that 90 % of the last two seconds' frames did not exceed, less the
///   `tolerance` a display absorbs by itself, bounded by `maxDelay` — nothing on a clean
///   link, a little on a jittery one, shrinking again as the link calms;
/// - no sooner after the group before it (same stroke) than `catchUp` (¾) of their `t`
///   distance: a burst is played at most 4/3 as fast as the finger moved, never at once;
/// - no later than `maxHold` after it arrived.
/// When a stroke's frames are late beyond that, on a link that showed such lateness, the
/// pointer is carried along the stroke's recent velocity (`MotionPrediction`) for at most the
/// lateness seen and `maxPrediction`; the real frames then pay that motion back (those it
/// covered are played at once), slowing down the longer they stay away; what was played too
/// far is taken back once the real frames reach the page time it was played for, before
/// anything else (a press, a lift), or when the frames stay away well past the prediction.
/// Nothing is dropped or reordered, and the stroke ends exactly where the finger's motion says. `flushAll` plays
/// everything at once (a release on close, cancel or silence is immediate).
///
/// Storage is reused: no allocation once warm.
public struct ActionPlayout: Sendable {
    private struct Group: Sendable {
        var start: Int
        var end: Int
        var t: Double?
        var arrival: Double
        /// Only pointer motion or contact moves (prediction may follow it, debt may cover it).
        var motionOnly: Bool
        var settles: Bool
    }

    public let config: PlayoutConfig
    private var waiting: [HostAction] = []
    private var groups: [Group] = []
    private var nextGroup = 0
    private var jitter: LinkJitter
    private var prediction: MotionPrediction
    /// The last group played: its page time and when it was played.
    private var lastT: Double? = nil
    private var lastAt = -Double.infinity
    /// The last group played was motion of a stroke still going on (prediction may follow).
    private var strokeMoving = false
    /// When the last predicted step was played (nil: none since the last real frame).
    private var lastPredictionAt: Double? = nil
    /// The page time the predicted motion reaches (nil: nothing played ahead).
    private var predictedThrough: Double? = nil
    /// The touchpad backend's contacts: one finger's stroke is predicted as its contact.
    private var contacts = ContactStroke()

    public init(config: PlayoutConfig = PlayoutConfig()) {
        self.config = config
        jitter = LinkJitter(tolerance: config.tolerance, window: config.window)
        prediction = MotionPrediction(window: config.velocityWindow)
        waiting.reserveCapacity(64)
        groups.reserveCapacity(32)
    }

    /// Nothing waits.
    public var isEmpty: Bool { nextGroup == groups.count }

    /// The actions waiting, in the order they will be carried out (predicted motion aside).
    public var pending: ArraySlice<HostAction> {
        isEmpty ? [] : waiting[groups[nextGroup].start...]
    }

    /// The playout delay now (ms): what the jitter buffer adds to a frame's fastest arrival.
    public var delay: Double {
        min(max(jitter.lateness(quantile: config.quantile) - config.tolerance, 0), config.maxDelay)
    }

    /// When `release(now:into:)` has something to carry out next: the next group's due time,
    /// or the next predicted step of a late stroke. Nil: nothing.
    public var nextDue: Double? {
        if !isEmpty { return due(groups[nextGroup]) }
        return nextPredictionTime ?? repayTime
    }

    /// Takes the actions `actions[start...]` that arrived at `arrival` (one message): each
    /// mark ends one input's actions and gives its `t`; actions after the last mark form an
    /// untimed group. The actions due now stay in `actions` (in order); the rest wait.
    public mutating func admit(
        _ actions: inout [HostAction], from start: Int, marks: ArraySlice<PlayoutMark>, arrival: Double
    ) {
        var groupStart = start
        for mark in marks {
            if let t = mark.t { jitter.note(t: t, arrival: arrival) }
            let end = min(max(mark.end, groupStart), actions.count)
            append(actions[groupStart..<end], t: mark.t, settles: mark.settles, arrival: arrival)
            groupStart = end
        }
        if groupStart < actions.count {
            append(actions[groupStart...], t: nil, settles: false, arrival: arrival)
        }
        actions.removeSubrange(start...)
        release(now: arrival, into: &actions)
    }

    /// Appends what is due at `now`: waiting groups in order, or a predicted step.
    public mutating func release(now: Double, into actions: inout [HostAction]) {
        var played = false
        while !isEmpty, due(groups[nextGroup]) <= now {
            play(groups[nextGroup], now: now, into: &actions)
            nextGroup += 1
            played = true
        }
        guard isEmpty else { return }
        compact()
        guard !played else { return }
        if let step = nextPredictionTime, step <= now {
            predict(now: now, into: &actions)
        } else if let repay = repayTime, repay <= now, prediction.hasDebt {
            // The stroke's frames stayed away for long after the prediction ended (the finger
            // stopped, or the link is stalled): the pointer goes back to where the last real
            // frame put it.
            takeBack(into: &actions)
            prediction.forgetVelocity()
            strokeMoving = false
            predictedThrough = nil
        }
    }

    /// Appends everything waiting at once, and takes back what was played ahead: the
    /// connection closed, its touch was cancelled or fell silent, or control turned off.
    public mutating func flushAll(now: Double, into actions: inout [HostAction]) {
        while !isEmpty {
            play(groups[nextGroup], now: now, into: &actions)
            nextGroup += 1
        }
        compact()
        takeBack(into: &actions)
        prediction.forgetVelocity()
        strokeMoving = false
        predictedThrough = nil
    }

    // MARK: - Due times

    private func due(_ group: Group) -> Double {
        if group.motionOnly, prediction.hasDebt, covered(group) { return group.arrival }
        var due = group.arrival
        if let t = group.t {
            if let offset = jitter.offset { due = max(due, t + offset + delay) }
            if let lastT, t > lastT, t - lastT <= config.strokeGap {
                due = max(due, lastAt + (t - lastT) * config.catchUp)
            }
        }
        return min(due, group.arrival + config.maxHold)
    }

    /// Whether what was played ahead covers all of the group's motion (it shows nothing new).
    private func covered(_ group: Group) -> Bool {
        var dx = 0
        var dy = 0
        var contactStep: (dx: Int, dy: Int)? = nil
        for action in waiting[group.start..<group.end] {
            switch action {
            case .motion(let x, let y):
                dx += x
                dy += y
            case .contact(let contact) where contacts.isTracked(contact):
                contactStep = contacts.delta(to: contact)
            default:
                continue
            }
        }
        if let contactStep {
            dx += contactStep.dx
            dy += contactStep.dy
        }
        return Self.within(dx, prediction.debtX) && Self.within(dy, prediction.debtY)
    }

    private static func within(_ motion: Int, _ debt: Int) -> Bool {
        motion == 0 || (debt != 0 && (motion > 0) == (debt > 0) && abs(motion) <= abs(debt))
    }

    /// When the next predicted step is due: only while the stroke's frames are late, on a link
    /// that showed such lateness, and for no longer than it showed.
    private var nextPredictionTime: Double? {
        // The horizon first: on a clean link it is nil at the cost of one comparison.
        guard strokeMoving, lastT != nil, let horizon = predictionHorizon(at: lastAt), prediction.velocity != nil else {
            return nil
        }
        // The first step once the next frame is clearly late (half a frame spacing past it).
        let step = lastPredictionAt.map { $0 + config.predictionStep } ?? lastAt + prediction.spacing * 1.5
        return step <= lastAt + horizon ? step : nil
    }

    /// How long past the last real frame a stroke may be carried: `predictionReach` times the
    /// most a frame was late in the last ten seconds (nil: none was late beyond the tolerance),
    /// at most `maxPrediction`.
    /// Ten seconds, not the delay's two: a busy channel may hold a frame back only every few
    /// seconds, and each unbridged one is a freeze.
    private func predictionHorizon(at now: Double) -> Double? {
        let lateness = jitter.peak(at: now)
        return lateness > config.tolerance ? min(lateness * config.predictionReach, config.maxPrediction) : nil
    }

    /// When motion played ahead is taken back if no real frame came to pay it: a step after
    /// the prediction ended.
    private var repayTime: Double? {
        guard prediction.hasDebt else { return nil }
        return lastAt + (predictionHorizon(at: lastAt) ?? 0) + config.strokeGap
    }

    // MARK: - Playing

    private mutating func play(_ group: Group, now: Double, into actions: inout [HostAction]) {
        var realX = 0
        var realY = 0
        var predictable = group.motionOnly
        for action in waiting[group.start..<group.end] {
            switch action {
            case .motion(let dx, let dy):
                realX += dx
                realY += dy
                let left = prediction.pay(dx: dx, dy: dy)
                if left.dx != 0 || left.dy != 0 { actions.append(.motion(dx: left.dx, dy: left.dy)) }
            case .contact(let contact) where contacts.isTracked(contact):
                // One finger's contact: written at its real position plus what is still ahead.
                let step = contacts.advance(to: contact)
                realX += step.dx
                realY += step.dy
                _ = prediction.pay(dx: step.dx, dy: step.dy)
                if let placed = contacts.placed(debtX: prediction.debtX, debtY: prediction.debtY, t: contact.t) {
                    actions.append(placed)
                }
            default:
                // Anything else lands where the finger really is.
                takeBack(into: &actions)
                if case .contact(let contact) = action {
                    actions.append(.contact(contacts.note(contact)))
                } else {
                    actions.append(action)
                }
                predictable = false
            }
        }
        if let t = group.t {
            if let lastT, t - lastT > config.strokeGap { prediction.forgetVelocity() }
            lastT = max(lastT ?? t, t)
        }
        lastAt = now
        lastPredictionAt = nil
        if predictable, !group.settles, let t = group.t {
            prediction.noteReal(dx: realX, dy: realY, t: t)
            strokeMoving = true
            // The real frames reached the page time the prediction played: what is still
            // ahead of them was too far (the finger slowed down).
            if let through = predictedThrough, t >= through { takeBack(into: &actions) }
        } else if group.settles || !predictable {
            takeBack(into: &actions)
            prediction.forgetVelocity()
            strokeMoving = false
        }
        if !prediction.hasDebt { predictedThrough = nil }
    }

    private mutating func predict(now: Double, into actions: inout [HostAction]) {
        let since = lastPredictionAt ?? lastAt
        lastPredictionAt = now
        if let lastT { predictedThrough = lastT + (now - lastAt) }
        guard let step = prediction.predict(for: now - since, since: now - lastAt, decay: config.predictionDecay) else {
            return
        }
        if contacts.isActive {
            let t = predictedThrough ?? lastT ?? 0
            if let placed = contacts.placed(debtX: prediction.debtX, debtY: prediction.debtY, t: t) { actions.append(placed) }
        } else {
            actions.append(.motion(dx: step.dx, dy: step.dy))
        }
    }

    /// Takes back what was played ahead and not paid by real motion: the pointer moved back,
    /// or the contact placed back where the finger really is.
    private mutating func takeBack(into actions: inout [HostAction]) {
        guard let back = prediction.repay() else { return }
        if contacts.isActive, let placed = contacts.placed(debtX: 0, debtY: 0, t: lastT ?? 0) {
            actions.append(placed)
        } else {
            actions.append(.motion(dx: back.dx, dy: back.dy))
        }
    }

    // MARK: - Storage

    private mutating func append(_ slice: ArraySlice<HostAction>, t: Double?, settles: Bool, arrival: Double) {
        // An input that moved nothing (a sub-pixel move) makes no group unless it settles.
        guard !slice.isEmpty || settles else { return }
        var motionOnly = !slice.isEmpty
        for action in slice {
            if case .motion = action { continue }
            if case .contact(let contact) = action, contact.phase == .move { continue }
            motionOnly = false
            break
        }
        let start = waiting.count
        waiting.append(contentsOf: slice)
        groups.append(Group(start: start, end: waiting.count, t: t, arrival: arrival, motionOnly: motionOnly, settles: settles))
    }

    private mutating func compact() {
        guard nextGroup > 0 else { return }
        waiting.removeAll(keepingCapacity: true)
        groups.removeAll(keepingCapacity: true)
        nextGroup = 0
    }
}
