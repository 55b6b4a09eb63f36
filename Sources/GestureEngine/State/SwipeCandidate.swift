/// What the last motion-running phase of a contact looked like when it ended.
struct SwipeCandidate: Sendable {
    enum Kind: Sendable {
        /// `drag` or `scroll`: may make a swipe (one that ends this).
        case swipeable(SwipeEnd)
        /// `longPressDrag`, `pinch`, `rotate`: no swipe.
        case other
    }

    var kind: Kind
    var dx: Double
    var dy: Double
    var vx: Double
    var vy: Double
    var x: Double
    var y: Double
}
