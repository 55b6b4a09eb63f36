/// A pointer that is down: where it went down, where it is, and how far it wandered.
struct TrackedPointer: RosterPointer {
    let id: Int
    let pointerType: PointerType
    let downX: Double
    let downY: Double
    let downT: Double
    var x: Double
    var y: Double
    /// The largest distance from the down location so far (GESTURES.md "slop").
    var maxDistance: Double = 0

    init(_ sample: PointerSample) {
        id = sample.id
        pointerType = sample.pointerType
        downX = sample.x
        downY = sample.y
        downT = sample.t
        x = sample.x
        y = sample.y
    }

    /// Moves the pointer, keeping `maxDistance` up to date.
    mutating func move(x: Double, y: Double) {
        self.x = x
        self.y = y
        let d = Angle.length(dx: x - downX, dy: y - downY)
        if d > maxDistance { maxDistance = d }
    }
}
