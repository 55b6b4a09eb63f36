import GestureEngine

/// The touch pointers of the connection that are down, with their last positions, and the
/// ids of fingers of a cancelled (or released) contact, ignored until their `up` or a new
/// `down` of their id — as the engine does (docs/gestures.md "Cancel").
struct TouchPointers: Sendable {
    /// A finger that is down.
    struct Finger: Sendable {
        let id: Int
        var x: Double
        var y: Double
    }

    /// Live fingers, in down order.
    private(set) var fingers: [Finger] = []
    /// Ignored ids: the engine's rule (`IgnoredPointers`).
    private var ignored = IgnoredPointers()

    init() {
        fingers.reserveCapacity(10)
    }

    /// Fingers down (ignored ones not counted).
    var count: Int { fingers.count }

    /// The index of a live finger.
    func index(of id: Int) -> Int? {
        fingers.firstIndex { $0.id == id }
    }

    func isIgnored(_ id: Int) -> Bool {
        ignored.contains(id)
    }

    /// A finger goes down (a new `down` of an ignored id ends its ignoring). `false` when the
    /// id is already down.
    mutating func add(id: Int, x: Double, y: Double) -> Bool {
        guard index(of: id) == nil else { return false }
        unignore(id)
        fingers.append(Finger(id: id, x: x, y: y))
        return true
    }

    /// Updates a live finger's position.
    mutating func move(at index: Int, x: Double, y: Double) {
        fingers[index].x = x
        fingers[index].y = y
    }

    /// A live finger lifts.
    mutating func remove(at index: Int) {
        fingers.remove(at: index)
    }

    /// Removes an id from the ignored set; `true` when it was there.
    @discardableResult
    mutating func unignore(_ id: Int) -> Bool {
        ignored.remove(id)
    }

    /// Every live finger becomes ignored (its contact was cancelled).
    mutating func ignoreAll() {
        for finger in fingers { ignored.insert(finger.id) }
        fingers.removeAll(keepingCapacity: true)
    }
}
