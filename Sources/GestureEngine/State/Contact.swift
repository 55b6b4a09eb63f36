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
    /// The one-finger hold gestures (only while the contact has had one finger).
    var hold = HoldState()

    init(startT: Double) {
        self.startT = startT
        lastDownT = startT
    }

    var tapLocation: (x: Double, y: Double) {
        downCount == 0 ? (0, 0) : (downSumX / Double(downCount), downSumY / Double(downCount))
    }
}
