/// The fields of `scroll` events (GESTURES.md "Two fingers").
public struct ScrollFields: Sendable, Hashable {
    /// Centroid translation since the phase's start.
    public var dx: Double
    public var dy: Double
    /// Since the previous scroll event (at `began`, since the start).
    public var ddx: Double
    public var ddy: Double
    /// Velocity in px/s.
    public var vx: Double
    public var vy: Double

    public init(dx: Double, dy: Double, ddx: Double, ddy: Double, vx: Double, vy: Double) {
        self.dx = dx
        self.dy = dy
        self.ddx = ddx
        self.ddy = ddy
        self.vx = vx
        self.vy = vy
    }
}
