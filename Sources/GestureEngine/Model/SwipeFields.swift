/// The fields of a `swipe` event (GESTURES.md "swipe").
public struct SwipeFields: Sendable, Hashable {
    public var direction: SwipeDirection
    /// Travel along the main axis, px.
    public var distance: Double
    /// Main-axis speed in the direction of travel, px/s.
    public var velocity: Double
    /// The contact's duration, ms.
    public var duration: Double
    /// What the judged phase ran: a `drag` or a `scroll` (additive field `ends`).
    public var ends: SwipeEnd

    public init(direction: SwipeDirection, distance: Double, velocity: Double, duration: Double, ends: SwipeEnd = .drag) {
        self.direction = direction
        self.distance = distance
        self.velocity = velocity
        self.duration = duration
        self.ends = ends
    }
}
