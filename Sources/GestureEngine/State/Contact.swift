/// One contact: from the first pointer going down until none is down (GESTURES.md "Words").
struct Contact: Sendable {
    let startT: Double
    var lastDownT: Double
    /// The most fingers down at once so far.
    var maxFingers = 0
    /// Every finger stayed within slop (up locations included).
    var allWithinSlop = true
    /// Sum of every down location, for the tap location (centroid of the first downs).
    var downSumX = 0.0
    var downSumY = 0.0
    var downCount = 0
    var hadLongPressDrag = false
    /// The last phase in which a continuous motion gesture ran, for `swipe`.
    var swipe: SwipeCandidate? = nil
    /// The one-finger hold gestures (only while the contact has had one finger).
    var hold = HoldState()
    /// The continuous gesture of the current phase.
    var motion: PhaseMotion = .idle
    /// The current phase's normalised geometry.
    var phase = PhaseGeometry()

    init(startT: Double) {
        self.startT = startT
        lastDownT = startT
    }

    var tapLocation: (x: Double, y: Double) {
        downCount == 0 ? (0, 0) : (downSumX / Double(downCount), downSumY / Double(downCount))
    }
}

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
