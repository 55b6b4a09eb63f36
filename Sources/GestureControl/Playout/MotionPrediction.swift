/// A stroke's recent pointer motion and what was played ahead of it (pure): the velocity of
/// the last `PlayoutConfig.velocityWindow` of page time, predicted motion while the stroke's
/// frames are late, and the debt — motion played ahead that the real frames pay back.
struct MotionPrediction: Sendable {
    private struct Sample: Sendable {
        var t: Double
        var dx: Double
        var dy: Double
    }

    static let capacity = 32

    private var samples: [Sample]
    private var head = 0
    private var count = 0
    /// Motion played ahead of the real frames, screen px.
    private(set) var debtX = 0
    private(set) var debtY = 0
    /// The sub-pixel part of predicted motion not played yet.
    private var remainderX = 0.0
    private var remainderY = 0.0
    private let window: Double

    init(window: Double) {
        self.window = max(window, 1)
        samples = Array(repeating: Sample(t: 0, dx: 0, dy: 0), count: Self.capacity)
    }

    var hasDebt: Bool { debtX != 0 || debtY != 0 }

    /// Real motion (dx, dy) was played for page time `t`.
    mutating func noteReal(dx: Int, dy: Int, t: Double) {
        if count == Self.capacity {
            head = (head + 1) % Self.capacity
            count -= 1
        }
        samples[(head + count) % Self.capacity] = Sample(t: t, dx: Double(dx), dy: Double(dy))
        count += 1
        while count > 1, samples[head].t < t - window {
            head = (head + 1) % Self.capacity
            count -= 1
        }
    }

    /// The stroke ended or changed: no velocity until new samples come.
    mutating func forgetVelocity() {
        head = 0
        count = 0
        remainderX = 0
        remainderY = 0
    }

    /// Screen px per page ms over the window, if it holds at least two samples 4 ms apart.
    var velocity: (x: Double, y: Double)? {
        guard count >= 2 else { return nil }
        let first = samples[head]
        let last = samples[(head + count - 1) % Self.capacity]
        let span = last.t - first.t
        guard span >= 4 else { return nil }
        var sumX = 0.0
        var sumY = 0.0
        for offset in 1..<count {
            let sample = samples[(head + offset) % Self.capacity]
            sumX += sample.dx
            sumY += sample.dy
        }
        return (sumX / span, sumY / span)
    }

    /// The page time between the samples in the window, on average (8 ms without two).
    var spacing: Double {
        guard count >= 2 else { return 8 }
        let span = samples[(head + count - 1) % Self.capacity].t - samples[head].t
        return max(span / Double(count - 1), 1)
    }

    /// The whole pixels to move for `elapsed` ms at the stroke's velocity, slowing down the
    /// longer the frames stay away (`since`: ms since the last real frame; the velocity is
    /// divided by 1 + since / `decay`), kept as debt; nil when there is no velocity or less
    /// than a pixel to move yet. The slowing bounds how far a finger that stopped is overshot.
    mutating func predict(for elapsed: Double, since: Double, decay: Double) -> (dx: Int, dy: Int)? {
        guard let velocity, elapsed > 0 else { return nil }
        let scale = elapsed / (1 + max(since, 0) / max(decay, 1))
        remainderX += velocity.x * scale
        remainderY += velocity.y * scale
        let dx = Int(remainderX.rounded(.towardZero))
        let dy = Int(remainderY.rounded(.towardZero))
        guard dx != 0 || dy != 0 else { return nil }
        remainderX -= Double(dx)
        remainderY -= Double(dy)
        debtX += dx
        debtY += dy
        return (dx, dy)
    }

    /// Real motion (dx, dy) less what was already played ahead of it on each axis (the same
    /// direction only: motion the other way is kept, the debt is paid back at `repay`).
    mutating func pay(dx: Int, dy: Int) -> (dx: Int, dy: Int) {
        let (x, newDebtX) = Self.consume(dx, debtX)
        let (y, newDebtY) = Self.consume(dy, debtY)
        debtX = newDebtX
        debtY = newDebtY
        return (x, y)
    }

    /// The motion that takes back what was played ahead and not paid by real motion; the
    /// debt is then zero.
    mutating func repay() -> (dx: Int, dy: Int)? {
        guard hasDebt else { return nil }
        defer {
            debtX = 0
            debtY = 0
        }
        return (-debtX, -debtY)
    }

    private static func consume(_ real: Int, _ debt: Int) -> (left: Int, debt: Int) {
        guard real != 0, debt != 0, (real > 0) == (debt > 0) else { return (real, debt) }
        let paid = real > 0 ? min(real, debt) : max(real, debt)
        return (real - paid, debt - paid)
    }
}
