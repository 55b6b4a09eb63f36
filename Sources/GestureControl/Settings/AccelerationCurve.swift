/// The adaptive pointer acceleration: gain as a function of finger speed, in the spirit of
/// libinput's touchpad profile — below `threshold` the gain is `minimumGain` (slow moves are
/// precise), then it rises linearly with `slope` up to `maximumGain` (fast moves go far).
/// Continuous and non-decreasing by construction; plotted in docs/control.md.
public struct AccelerationCurve: Sendable, Hashable {
    /// Speed (CSS px/ms) up to which the gain stays at its minimum. 0.1 px/ms = 100 px/s.
    public var threshold: Double = 0.1
    /// Gain at and below the threshold.
    public var minimumGain: Double = 0.8
    /// Gain added per px/ms above the threshold.
    public var slope: Double = 1.6
    /// The largest gain.
    public var maximumGain: Double = 3.5

    public init() {}

    /// The gain at `speed` (CSS px/ms, ≥ 0; non-finite or negative speeds count as 0).
    public func gain(atSpeed speed: Double) -> Double {
        let v = speed.isFinite ? max(speed, 0) : 0
        let g = minimumGain + slope * max(0, v - threshold)
        return min(max(g, minimumGain), max(maximumGain, minimumGain))
    }
}
