/// The thresholds of `ActionPlayout`, each with where its default comes from (docs/control.md
/// "Playout: smooth on a real Wi-Fi"). Times in ms.
public struct PlayoutConfig: Sendable, Hashable {
    /// The shortest share of their `t` distance kept between two frames of a stroke: a burst is
    /// played back at most 4/3 as fast as the finger moved. libinput takes that for a slightly
    /// faster finger, never for a jump (the touchpad's pacer measured it, BENCHMARKS.md), and a
    /// display at 60 Hz sees at most 4/3 of the ideal step per frame.
    public var catchUp: Double
    /// No frame waits longer than this after it arrived (the touchpad pacer's bound since
    /// issue 33): a link worse than that is played late rather than later.
    public var maxHold: Double
    /// How much lateness is absorbed without buffering: a frame late by less than about one
    /// display frame at 60 Hz (16.7 ms) still lands in the frame it belongs to or the next,
    /// and a 120 Hz stroke shows no freeze. Only lateness beyond it is buffered.
    public var tolerance: Double
    /// The most playout delay the jitter buffer adds. Waiting longer than this costs more
    /// than the freezes it saves: the rest of a gap is bridged by prediction.
    public var maxDelay: Double
    /// The share of recent frames the delay is chosen to absorb (its quantile of lateness).
    public var quantile: Double
    /// How far back (server ms) lateness is remembered: long enough to see several
    /// power-save bursts (40–100 ms apart), short enough to shrink again within two seconds
    /// of the link calming.
    public var window: Double
    /// The longest stretch a stroke is carried along its recent velocity while its frames are
    /// late (only on a link that showed such lateness, and never past the lateness it showed).
    public var maxPrediction: Double
    /// How far past the worst lateness seen prediction may reach: the first frames late
    /// beyond `tolerance` tell that a link has a tail, not how deep it goes. On a busy channel
    /// the body's worst frames are late by 13–20 ms and a held frame by 40–70: three times the
    /// worst seen bridges the first held frame too (once bridged only as far as seen, it
    /// left 1.7 % of display frames frozen and a 2.1× jump; three times, 0.6 % and 1.5×, over
    /// 20 seeded busy links in `PlayoutSimulationTests`' model).
    public var predictionReach: Double
    /// The page time over which the stroke's velocity is measured for prediction.
    public var velocityWindow: Double
    /// How often a predicted step is made (≈ the page's 120 Hz input).
    public var predictionStep: Double
    /// How quickly predicted motion slows down: at this many ms past the last real frame it
    /// goes at half the stroke's velocity. Slow enough that a stroke still moving through a
    /// power-save gap of 100 ms keeps about ⅔ of its speed (40 ms halved it: the pointer
    /// crawled, then caught up in a visible jump); a finger that stopped while its frames were
    /// held is overshot by at most about its velocity × this × ln(1 + horizon / this) — 39 px
    /// for a brisk 500 px/s and the longest horizon, taken back when the frames arrive.
    public var predictionDecay: Double
    /// Frames further apart than this in page time belong to different strokes: the second
    /// is not spaced from the first, nor predicted from it.
    public var strokeGap: Double

    public init(
        catchUp: Double = 0.75, maxHold: Double = 100, tolerance: Double = 12, maxDelay: Double = 10,
        quantile: Double = 0.9, window: Double = 2_000, maxPrediction: Double = 100, predictionReach: Double = 3,
        velocityWindow: Double = 50,
        predictionStep: Double = 8, predictionDecay: Double = 160, strokeGap: Double = 100
    ) {
        self.catchUp = catchUp
        self.maxHold = maxHold
        self.tolerance = tolerance
        self.maxDelay = maxDelay
        self.quantile = quantile
        self.window = window
        self.maxPrediction = maxPrediction
        self.predictionReach = predictionReach
        self.velocityWindow = velocityWindow
        self.predictionStep = predictionStep
        self.predictionDecay = predictionDecay
        self.strokeGap = strokeGap
    }
}
