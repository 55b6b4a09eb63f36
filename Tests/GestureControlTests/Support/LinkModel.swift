import Foundation
import GestureControl
import GesturePadTestSupport

/// The links of issue 41 as arrival-time models of one TCP stream (head-of-line: a frame never
/// arrives before the one sent before it). The same shapes as tests/wifi's proxy profiles.
enum LinkProfile: String, CaseIterable, Sendable {
    case loopback, home, busy, loss, powersave

    /// The arrival time (ms) of each frame sent at `sends`.
    func arrivals(of sends: [Double], seed: UInt64) -> [Double] {
        var random = SeededGenerator(seed: seed)
        var bursts: [Double] = []
        if self == .powersave {
            var b = Double.random(in: 0..<60, using: &random)
            while b < (sends.last ?? 0) + 500 {
                bursts.append(b)
                b += Double.random(in: 40...100, using: &random)
            }
        }
        var previous = -Double.infinity
        var burst = 0
        return sends.map { t in
            let delay: Double
            switch self {
            case .loopback: delay = 0.3
            case .home: delay = 0.3 + Double.random(in: 1...5, using: &random)
            case .busy:
                // tests/wifi/linkshaper.py's: lognormal, median 6 ms, σ 0.5 (Box–Muller); 1 % of
                // frames held 40–70 ms more (a busy channel's tail); at most 250 ms.
                let u = Double.random(in: Double.ulpOfOne..<1, using: &random)
                let v = Double.random(in: 0..<1, using: &random)
                var d = 6 * exp(0.5 * (-2 * log(u)).squareRoot() * cos(2 * .pi * v))
                if Double.random(in: 0..<1, using: &random) < 0.01 { d += Double.random(in: 40...70, using: &random) }
                delay = min(d, 250)
            case .loss:
                delay =
                    0.3 + Double.random(in: 1...5, using: &random)
                    + (Double.random(in: 0..<1, using: &random) < 0.02 ? 40 : 0)
            case .powersave:
                while bursts[burst] < t + 0.3 { burst += 1 }
                delay = bursts[burst] - t
            }
            previous = max(t + delay, previous)
            return previous
        }
    }
}

/// What a display at 60 Hz shows of one stroke played through an `ActionPlayout` on a virtual
/// clock: the stroke of issue 41 (600 px in 3 s at 120 Hz, one px of motion per px of finger).
struct StrokeThroughLink {
    struct Result {
        var latencyP50: Double
        var latencyP99: Double
        var frozenShare: Double
        var largestJump: Double
        var finalX: Int
        var strokeX: Int
        /// Contacts written with a `t` before one written earlier (the backend paces by `t`).
        var contactTimeReversals = 0
    }

    static let frameMs = 1000.0 / 120
    static let displayMs = 1000.0 / 60
    static let speed = 0.2  // px per ms: 600 px in 3 s

    /// `contacts`: the stroke as the touchpad backend gets it — one finger's contact landing,
    /// moving (positions, CSS px) and lifting — and the display shows the contact's position.
    static func run(
        _ profile: LinkProfile, seed: UInt64, config: PlayoutConfig = PlayoutConfig(), contacts: Bool = false
    ) -> Result {
        let count = Int(3000 / frameMs) + 1
        let sends = (0..<count).map { Double($0) * frameMs }
        let arrivals = profile.arrivals(of: sends, seed: seed)
        // Whole-pixel motion per frame, with the remainder carried as the mapper does.
        var motions: [Int] = []
        var carried = 0.0
        for index in sends.indices {
            let step = index == 0 ? 0 : (sends[index] - sends[index - 1]) * speed + carried
            let whole = Int(step.rounded(.towardZero))
            carried = step - Double(whole)
            motions.append(whole)
        }
        var playout = ActionPlayout(config: config)
        var x = 0
        var played: [(at: Double, x: Int)] = []
        var actions: [HostAction] = []
        var next = 0
        var now = 0.0
        var lastContactT = -Double.infinity
        var reversals = 0
        func carryOut(_ at: Double) {
            for action in actions {
                switch action {
                case .motion(let dx, _): x += dx
                case .contact(let contact):
                    x = Int(contact.x.rounded(.down))
                    if contact.t < lastContactT { reversals += 1 }
                    lastContactT = max(lastContactT, contact.t)
                default: break
                }
            }
            if !actions.isEmpty { played.append((at, x)) }
            actions.removeAll()
        }
        // The finger's position at each frame (contacts), its whole pixels matching the motions.
        var positions: [Double] = []
        var sum = 0
        for motion in motions {
            sum += motion
            positions.append(Double(sum))
        }
        while next < count || playout.nextDue != nil {
            let arrival = next < count ? arrivals[next] : .infinity
            if let due = playout.nextDue, due < arrival {
                now = max(now, due)
                playout.release(now: now, into: &actions)
                carryOut(now)
                continue
            }
            now = arrival
            let last = next == count - 1
            if contacts {
                let phase: TouchContact.Phase = next == 0 ? .down : last ? .up : .move
                actions.append(.contact(TouchContact(owner: 1, id: 1, phase: phase, x: positions[next], y: 0, t: sends[next])))
            } else if motions[next] != 0 {
                actions.append(.motion(dx: motions[next], dy: 0))
            }
            playout.admit(
                &actions, from: 0,
                marks: [PlayoutMark(end: actions.count, t: sends[next], settles: last || (contacts && next == 0))][...],
                arrival: now)
            carryOut(now)
            next += 1
        }
        let total = motions.reduce(0, +)
        // Latency: from a frame's send until the pointer first reached where it puts the finger.
        var latencies: [Double] = []
        var reached = 0
        var target = 0
        for index in sends.indices {
            target += motions[index]
            while reached < played.count, played[reached].x < target { reached += 1 }
            guard reached < played.count else { break }
            latencies.append(played[reached].at - sends[index])
        }
        latencies.sort()
        // The display: where the pointer is at each 60 Hz frame while the stroke is under way.
        var samples: [Int] = []
        var sample = displayMs / 3
        var cursor = 0
        var shown = 0
        while sample < now + displayMs {
            while cursor < played.count, played[cursor].at <= sample {
                shown = played[cursor].x
                cursor += 1
            }
            samples.append(shown)
            sample += displayMs
        }
        var frozen = 0
        var counted = 0
        var jump = 0
        for index in samples.indices.dropFirst() where samples[index - 1] > 0 && samples[index - 1] < total {
            counted += 1
            let step = samples[index] - samples[index - 1]
            if step == 0 { frozen += 1 }
            jump = max(jump, abs(step))
        }
        return Result(
            latencyP50: latencies[latencies.count / 2], latencyP99: latencies[latencies.count * 99 / 100],
            frozenShare: Double(frozen) / Double(max(counted, 1)),
            largestJump: Double(jump) / (displayMs * speed), finalX: x, strokeX: total, contactTimeReversals: reversals)
    }
}
