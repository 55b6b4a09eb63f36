import GestureEngine

/// A finger of the control mapper's roster: down, with its last position.
struct TouchFinger: RosterPointer {
    let id: Int
    var x: Double
    var y: Double
}

/// The touch pointers of the connection that are down, with their last positions, and the
/// ids of fingers of a cancelled (or released) contact, ignored until their `up` or a new
/// `down` of their id: the engine's own roster (`PointerRoster`), with the mapper's two
/// conveniences.
typealias TouchPointers = PointerRoster<TouchFinger>

extension PointerRoster where Pointer == TouchFinger {
    init() { self.init(capacity: 10) }

    /// Live fingers, in down order.
    var fingers: [TouchFinger] { live }

    /// A finger goes down (a new `down` of an ignored id ends its ignoring). `false` when the
    /// id is already down.
    mutating func add(id: Int, x: Double, y: Double) -> Bool {
        guard index(of: id) == nil else { return false }
        add(TouchFinger(id: id, x: x, y: y))
        return true
    }

    /// Updates a live finger's position.
    mutating func move(at index: Int, x: Double, y: Double) {
        self[index].x = x
        self[index].y = y
    }
}
