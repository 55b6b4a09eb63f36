import GestureEngine

/// A synthetic but realistic touch session for the micro-benchmarks: taps, one-finger drags
/// and swipes, two-finger pinches and scrolls, sampled at 120 Hz like a phone's coalesced
/// pointer events, grouped into frames the way the page sends them (one batch per 60 Hz
/// animation frame). Deterministic: the same `cycles` always give the same inputs.
struct StrokeScript {
    /// Every input in order (what the engine benchmark feeds).
    private(set) var inputs: [PointerInput] = []
    /// Frames as index ranges into `inputs` (what the replay / session benchmarks send).
    private(set) var frames: [Range<Int>] = []

    private var t = 1000.0
    private var frameStart = 0

    /// Builds `cycles` repetitions of the stroke mix.
    init(cycles: Int) {
        inputs.reserveCapacity(cycles * 420)
        for cycle in 0..<cycles {
            let dx = Double(cycle % 7) * 3
            tap(x: 120 + dx, y: 300)
            pause(400)  // beyond the double-tap window: the tap is confirmed by its timer
            tap(x: 200, y: 420 + dx)
            pause(90)
            tap(x: 201, y: 421 + dx)  // a double tap
            pause(400)
            drag(from: (100, 500), by: (220 + dx, -40), samples: 60)  // a slow drag
            pause(300)
            drag(from: (80, 600), by: (260, 0), samples: 12)  // a fast swipe
            pause(300)
            pinch(center: (195, 420), from: 100, to: 260, samples: 60)
            pause(300)
            scroll(from: (150, 300), by: 240, samples: 60)
            pause(600)
        }
        endFrame()
    }

    private mutating func pause(_ ms: Double) {
        endFrame()
        t += ms
    }

    /// Closes the current frame (a batch of whatever was queued since the last one).
    private mutating func endFrame() {
        if frameStart < inputs.count { frames.append(frameStart..<inputs.count) }
        frameStart = inputs.count
    }

    private mutating func add(_ input: PointerInput) { inputs.append(input) }

    private func sample(_ id: Int, _ x: Double, _ y: Double) -> PointerSample {
        PointerSample(id: id, x: x, y: y, t: t, pointerType: .touch)
    }

    private mutating func tap(x: Double, y: Double) {
        add(.down(sample(1, x, y)))
        endFrame()
        t += 70
        add(.up(sample(1, x + 1, y)))
    }

    /// Samples every ~8.3 ms (120 Hz); two samples per 60 Hz frame.
    private mutating func drag(from start: (Double, Double), by delta: (Double, Double), samples: Int) {
        add(.down(sample(1, start.0, start.1)))
        endFrame()
        for i in 1...samples {
            t += 8.333
            let f = Double(i) / Double(samples)
            add(.move(sample(1, start.0 + delta.0 * f, start.1 + delta.1 * f)))
            if i % 2 == 0 { endFrame() }
        }
        endFrame()
        t += 8.333
        add(.up(sample(1, start.0 + delta.0, start.1 + delta.1)))
        endFrame()
    }

    /// Two fingers spreading symmetrically about `center` (same `t` per sample: one step).
    private mutating func pinch(center: (Double, Double), from d0: Double, to d1: Double, samples: Int) {
        add(.down(sample(1, center.0 - d0 / 2, center.1)))
        add(.down(sample(2, center.0 + d0 / 2, center.1)))
        endFrame()
        for i in 1...samples {
            t += 8.333
            let d = d0 + (d1 - d0) * Double(i) / Double(samples)
            add(.move(sample(1, center.0 - d / 2, center.1)))
            add(.move(sample(2, center.0 + d / 2, center.1)))
            if i % 2 == 0 { endFrame() }
        }
        endFrame()
        t += 8.333
        add(.up(sample(1, center.0 - d1 / 2, center.1)))
        add(.up(sample(2, center.0 + d1 / 2, center.1)))
        endFrame()
    }

    /// Two fingers 80 px apart moving down together.
    private mutating func scroll(from start: (Double, Double), by dy: Double, samples: Int) {
        add(.down(sample(1, start.0, start.1)))
        add(.down(sample(2, start.0 + 80, start.1)))
        endFrame()
        for i in 1...samples {
            t += 8.333
            let y = start.1 + dy * Double(i) / Double(samples)
            add(.move(sample(1, start.0, y)))
            add(.move(sample(2, start.0 + 80, y)))
            if i % 2 == 0 { endFrame() }
        }
        endFrame()
        t += 8.333
        add(.up(sample(1, start.0, start.1 + dy)))
        add(.up(sample(2, start.0 + 80, start.1 + dy)))
        endFrame()
    }
}
