/// The pointers that are down, in the order they went down, plus the ids of pointers of a
/// cancelled contact, which are ignored until their `up` or a new `down` of their id.
struct PointerTable: Sendable {
    /// Live pointers, in down order.
    private(set) var live: [TrackedPointer] = []
    /// Ignored ids (`IgnoredPointers`).
    private var ignored = IgnoredPointers()

    init(capacity: Int) {
        live.reserveCapacity(capacity)
    }

    var count: Int { live.count }
    var isEmpty: Bool { live.isEmpty }

    func index(of id: Int) -> Int? {
        live.firstIndex { $0.id == id }
    }

    func isIgnored(_ id: Int) -> Bool {
        ignored.contains(id)
    }

    subscript(index: Int) -> TrackedPointer {
        get { live[index] }
        set { live[index] = newValue }
    }

    mutating func add(_ pointer: TrackedPointer) {
        unignore(pointer.id)
        live.append(pointer)
    }

    @discardableResult
    mutating func remove(at index: Int) -> TrackedPointer {
        live.remove(at: index)
    }

    /// Removes an id from the ignored set; `true` when it was there.
    @discardableResult
    mutating func unignore(_ id: Int) -> Bool {
        ignored.remove(id)
    }

    /// Moves every live pointer to the ignored set (the contact was cancelled).
    mutating func ignoreAll() {
        for p in live { ignored.insert(p.id) }
        live.removeAll(keepingCapacity: true)
    }

    /// The centroid of the live pointers.
    var centroid: (x: Double, y: Double) {
        guard !live.isEmpty else { return (0, 0) }
        var sx = 0.0
        var sy = 0.0
        for p in live {
            sx += p.x
            sy += p.y
        }
        let n = Double(live.count)
        return (sx / n, sy / n)
    }
}
