import GestureControl
import Testing

/// `ActionPlayout`'s rules one by one, on a virtual clock (server ms = page ms + 100 when the
/// link is at its fastest).
struct ActionPlayoutTests {
    static let offset = 100.0

    /// Admits one input's actions (page time `t`) arriving at `arrival`; returns what is due now.
    static func admit(
        _ playout: inout ActionPlayout, _ new: [HostAction], t: Double?, at arrival: Double, settles: Bool = false
    ) -> [HostAction] {
        var actions = new
        playout.admit(
            &actions, from: 0, marks: [PlayoutMark(end: actions.count, t: t, settles: settles)][...], arrival: arrival)
        return actions
    }

    static func release(_ playout: inout ActionPlayout, at now: Double) -> [HostAction] {
        var actions: [HostAction] = []
        playout.release(now: now, into: &actions)
        return actions
    }

    @Test func onACleanLinkEveryFrameIsCarriedOutAsItArrives() {
        var p = ActionPlayout()
        for i in 0..<240 {
            let t = Double(i) * 8.33
            let out = Self.admit(&p, [.motion(dx: 2, dy: 1)], t: t, at: t + Self.offset + Double(i % 3) * 0.2)
            #expect(out == [.motion(dx: 2, dy: 1)], "frame \(i)")
        }
        #expect(p.isEmpty)
        #expect(p.delay == 0)
        #expect(p.nextDue == nil)
    }

    @Test func aBurstIsPlayedAtThreeQuartersOfItsSpacingInOrder() {
        var p = ActionPlayout()
        #expect(Self.admit(&p, [.motion(dx: 1, dy: 0)], t: 0, at: Self.offset) == [.motion(dx: 1, dy: 0)])
        // Five frames 8 ms apart arrive together 40 ms late, a press among them.
        let arrival = Self.offset + 40
        var played: [(Double, HostAction)] = []
        for i in 1...5 {
            let action: HostAction = i == 3 ? .button(.left, .down) : .motion(dx: i, dy: 0)
            for a in Self.admit(&p, [action], t: Double(i) * 8, at: arrival, settles: i == 5) {
                played.append((arrival, a))
            }
        }
        var now = arrival
        while let due = p.nextDue {
            #expect(due >= now)
            now = due
            for a in Self.release(&p, at: now) { played.append((now, a)) }
        }
        #expect(
            played.map(\.1) == [
                .motion(dx: 1, dy: 0), .motion(dx: 2, dy: 0), .button(.left, .down), .motion(dx: 4, dy: 0),
                .motion(dx: 5, dy: 0),
            ])
        for i in 1..<played.count {
            #expect(abs(played[i].0 - played[i - 1].0 - 6) < 1e-9, "spaced ¾ of 8 ms")
        }
    }

    @Test func noFrameWaitsLongerThanMaxHold() {
        var p = ActionPlayout(config: PlayoutConfig(maxHold: 20))
        _ = Self.admit(&p, [.motion(dx: 1, dy: 0)], t: 0, at: Self.offset)
        for i in 1...30 {
            _ = Self.admit(&p, [.motion(dx: 1, dy: 0)], t: Double(i) * 8, at: Self.offset + 300, settles: i == 30)
        }
        var last = 0.0
        while let due = p.nextDue {
            last = due
            _ = Self.release(&p, at: due)
        }
        #expect(last <= Self.offset + 300 + 20 + 1e-9)
    }

    @Test func flushAllPlaysEverythingAtOnce() {
        var p = ActionPlayout()
        _ = Self.admit(&p, [.motion(dx: 1, dy: 0)], t: 0, at: Self.offset)
        for i in 1...5 { _ = Self.admit(&p, [.motion(dx: 1, dy: 0)], t: Double(i) * 8, at: Self.offset + 90) }
        #expect(!p.isEmpty)
        var actions: [HostAction] = []
        p.flushAll(now: Self.offset + 90, into: &actions)
        #expect(actions.count >= 4)
        #expect(p.isEmpty)
        #expect(p.nextDue == nil)
    }

    /// A jittery link raises the delay (bounded); a calm one brings it back to nothing.
    @Test func theDelayFollowsTheLinkWithinItsBound() {
        var p = ActionPlayout()
        var t = 0.0
        for i in 0..<200 {
            t += 8
            let late = i % 2 == 0 ? 0 : 45.0
            var actions: [HostAction] = []
            p.admit(&actions, from: 0, marks: [PlayoutMark(end: 0, t: t, settles: false)][...], arrival: t + Self.offset + late)
        }
        #expect(p.delay == p.config.maxDelay)
        // Two seconds of frames at the link's fastest: the delay is gone.
        for _ in 0..<400 {
            t += 8
            var actions: [HostAction] = []
            p.admit(&actions, from: 0, marks: [PlayoutMark(end: 0, t: t, settles: false)][...], arrival: t + Self.offset)
        }
        #expect(p.delay == 0)
    }

    /// While a stroke's frames are late on a link that showed lateness, the pointer goes on at
    /// the stroke's velocity; the real frames pay it back, and the stroke ends exactly.
    @Test func aLateStrokeIsCarriedOnAndPaidBack() {
        var p = ActionPlayout()
        var x = 0
        var t = 0.0
        var now = 0.0
        func carry(_ actions: [HostAction]) {
            for case .motion(let dx, _) in actions { x += dx }
        }
        // Teach it the link: every tenth frame 50 ms late (and those behind it with it).
        var sent = 0
        var arrivals: [(Double, Double)] = []
        var held = -Double.infinity
        for i in 0..<240 {
            t = Double(i) * 8
            let arrival = max(t + Self.offset + (i % 10 == 5 ? 50 : 0), held)
            held = arrival
            arrivals.append((t, arrival))
        }
        var i = 0
        while i < arrivals.count || p.nextDue != nil {
            let arrival = i < arrivals.count ? arrivals[i].1 : .infinity
            if let due = p.nextDue, due < arrival {
                now = max(now, due)
                carry(Self.release(&p, at: now))
                continue
            }
            now = arrival
            carry(Self.admit(&p, [.motion(dx: 2, dy: 0)], t: arrivals[i].0, at: now, settles: i == arrivals.count - 1))
            sent += 2
            i += 1
        }
        #expect(x == sent)
    }

    /// Motion played ahead is taken back before a press: the click lands where the finger is.
    @Test func aPressLandsWhereTheFingerReallyIs() {
        var p = ActionPlayout()
        var x = 0
        var pressAt: Int? = nil
        func carry(_ actions: [HostAction]) {
            for action in actions {
                if case .motion(let dx, _) = action { x += dx }
                if case .button = action { pressAt = x }
            }
        }
        // A link that holds every tenth frame 50 ms (and the frames behind it), for 2 s.
        var held = -Double.infinity
        var now = 0.0
        var t = 0.0
        for i in 0..<240 {
            t = Double(i) * 8
            let arrival = max(t + Self.offset + (i % 10 == 5 ? 50 : 0), held)
            held = arrival
            while let due = p.nextDue, due < arrival {
                now = max(now, due)
                carry(Self.release(&p, at: now))
            }
            now = arrival
            carry(Self.admit(&p, [.motion(dx: 2, dy: 0)], t: t, at: now))
        }
        while let due = p.nextDue, due < now + 30 {
            now = max(now, due)
            carry(Self.release(&p, at: now))
        }
        #expect(x > 480, "carried on past the last real frame")
        // The finger had stopped: the press comes, and the pointer goes back first.
        carry(Self.admit(&p, [.button(.left, .down)], t: t + 30, at: now + 1, settles: true))
        while let due = p.nextDue { carry(Self.release(&p, at: due)) }
        #expect(pressAt == 480)
        #expect(x == 480)
    }

    static func contact(_ id: Int, _ phase: TouchContact.Phase, x: Double, t: Double) -> HostAction {
        .contact(TouchContact(owner: 1, id: id, phase: phase, x: x, y: 50, t: t))
    }

    /// Plays a link that holds every tenth frame 50 ms (and those behind it) for `frames`
    /// frames of `inputs(i, t)`; returns every contact written, with when.
    static func playHeld(
        _ p: inout ActionPlayout, frames: Int, _ inputs: (Int, Double) -> [HostAction]
    ) -> [(at: Double, contact: TouchContact)] {
        var written: [(at: Double, contact: TouchContact)] = []
        func carry(_ actions: [HostAction], _ now: Double) {
            for case .contact(let c) in actions { written.append((now, c)) }
        }
        var held = -Double.infinity
        var now = 0.0
        for i in 0..<frames {
            let t = Double(i) * 8
            let arrival = max(t + Self.offset + (i % 10 == 5 ? 50 : 0), held)
            held = arrival
            while let due = p.nextDue, due < arrival {
                now = max(now, due)
                carry(Self.release(&p, at: now), now)
            }
            now = arrival
            let input = inputs(i, t)
            carry(Self.admit(&p, input, t: t, at: now, settles: i == 0 || i == frames - 1), now)
        }
        while let due = p.nextDue {
            now = max(now, due)
            carry(Self.release(&p, at: now), now)
        }
        return written
    }

    /// The touchpad's one finger: while its frames are held, its contact is carried on (written
    /// ahead of the last real position, `t` never going back), and it lifts exactly where the
    /// finger lifted.
    @Test func oneFingersContactIsCarriedThroughAGap() {
        var p = ActionPlayout()
        let written = Self.playHeld(&p, frames: 240) { i, t in
            [Self.contact(1, i == 0 ? .down : i == 239 ? .up : .move, x: 100 + Double(i) * 2, t: t)]
        }
        let ts = written.map(\.contact.t)
        #expect(zip(ts, ts.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(written.last?.contact.phase == .up && written.last?.contact.x == 100 + 239 * 2)
        // Some contact was written beyond every real position received by then: predicted.
        var realSoFar = -Double.infinity
        var ahead = 0
        for (_, c) in written where c.phase == .move {
            if c.x > realSoFar + 0.5, c.t > (written.first?.contact.t ?? 0) { ahead += 1 }
            realSoFar = max(realSoFar, c.x)
        }
        #expect(ahead > 0)
        #expect(written.filter { $0.contact.phase == .move }.count > 238, "every real frame is written")
    }

    /// Two fingers (a scroll, a pinch): paced, never carried on — every contact written is one
    /// the page sent, in order.
    @Test func twoFingersAreNeverPredicted() {
        var p = ActionPlayout()
        let written = Self.playHeld(&p, frames: 240) { i, t in
            if i == 0 { return [Self.contact(1, .down, x: 100, t: t), Self.contact(2, .down, x: 300, t: t)] }
            if i == 239 { return [Self.contact(1, .up, x: 100 + 478, t: t), Self.contact(2, .up, x: 300 + 478, t: t)] }
            return [Self.contact(1, .move, x: 100 + Double(i) * 2, t: t), Self.contact(2, .move, x: 300 + Double(i) * 2, t: t)]
        }
        let expected = (0..<240).flatMap { i -> [Double] in [100 + Double(i) * 2, 300 + Double(i) * 2] }
        #expect(written.map(\.contact.x) == expected)
    }
}
