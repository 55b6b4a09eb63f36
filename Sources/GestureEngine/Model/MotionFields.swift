/// The fields of `drag` and `longPressDrag` events (GESTURES.md "drag").
public struct MotionFields: Sendable, Hashable {
    /// Centroid at the phase's start (for `longPressDrag`, the long-press location).
    public var startX: Double
    public var startY: Double
    /// Translation since the start.
    public var dx: Double
    public var dy: Double
    /// Translation since this gesture's previous event (at `began`, since the start).
    public var ddx: Double
    public var ddy: Double
    /// Velocity in px/s.
    public var vx: Double
    public var vy: Double
    /// Projected end location and translation.
    public var predictedX: Double
    public var predictedY: Double
    public var predictedDx: Double
    public var predictedDy: Double

    public init(
        startX: Double, startY: Double, dx: Double, dy: Double, ddx: Double, ddy: Double,
        vx: Double, vy: Double, predictedX: Double, predictedY: Double,
        predictedDx: Double, predictedDy: Double
    ) {
        self.startX = startX
        self.startY = startY
        self.dx = dx
        self.dy = dy
        self.ddx = ddx
        self.ddy = ddy
        self.vx = vx
        self.vy = vy
        self.predictedX = predictedX
        self.predictedY = predictedY
        self.predictedDx = predictedDx
        self.predictedDy = predictedDy
    }
}
