/// Pinch zoom steps: the pinch scale turned into whole zoom steps,
/// `trunc(log(scale) / log(zoomStep))` (toward zero, so that a pinch wobbling around its
/// start makes no steps), bounded to ±`maxSteps`.
struct ZoomStepper: Sendable {
    /// Steps already sent for the running pinch.
    private(set) var sent = 0

    /// The most steps one pinch can make in either direction (1.25^40 ≈ 7,500×): a guard
    /// against absurd scales (fingers starting nearly on top of each other).
    static let maxSteps = 40

    /// The zoom step used when the setting is not a finite number > 1.
    static let fallbackStep = 1.25

    /// A new pinch starts: no steps sent.
    mutating func reset() {
        sent = 0
    }

    /// The whole steps of `scale`: the number of whole `zoomStep` factors in it, which is
    /// `trunc(log(scale) / log(zoomStep))` counted by multiplication (no libm; a relative
    /// tolerance of 1e-9 keeps `scale == zoomStep²` at 2 despite rounding), bounded to
    /// ±`maxSteps` (so 0 and +∞ are the bounds). `nil` for NaN or a negative scale.
    static func steps(scale: Double, zoomStep: Double) -> Int? {
        guard scale >= 0 else { return nil }
        let step = zoomStep.isFinite && zoomStep > 1 ? zoomStep : fallbackStep
        let ratio = scale >= 1 ? scale : 1 / scale
        let limit = ratio * (1 + 1e-9)
        var n = 0
        var power = step
        while n < maxSteps, power <= limit {
            n += 1
            power *= step
        }
        return scale >= 1 ? n : -n
    }

    /// Records the steps of `scale`; returns how many are new (positive: zoom in; 0 for a
    /// scale that is no number).
    mutating func advance(scale: Double, zoomStep: Double) -> Int {
        guard let now = Self.steps(scale: scale, zoomStep: zoomStep) else { return 0 }
        defer { sent = now }
        return now - sent
    }
}
