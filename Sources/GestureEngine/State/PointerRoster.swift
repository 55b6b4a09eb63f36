/// A pointer a `PointerRoster` keeps: its id and where it is.
public protocol RosterPointer: Sendable {
    var id: Int { get }
    var x: Double { get }
    var y: Double { get }
}

/// The pointers of one connection that are down, in the order they went down, plus the ids of
/// the pointers of a cancelled contact, ignored until their `up` or a new `down` of their id
/// (docs/gestures.md "Cancel"). One rule for the engine (`TrackedPointer`s) and the control
/// mapper (its fingers): both keep a roster of this type.
public struct PointerRoster<Pointer: RosterPointer>: Sendable {
    /// Live pointers, in down order.
    public private(set) var live: [Pointer] = []
    /// Ignored ids (`IgnoredPointers`).
    @usableFromInline var ignored = IgnoredPointers()

    public init(capacity: Int) {
        live.reserveCapacity(capacity)
    }

    @inlinable public var count: Int { live.count }
    @inlinable public var isEmpty: Bool { live.isEmpty }

    @inlinable public func index(of id: Int) -> Int? {
        live.firstIndex { $0.id == id }
    }

    @inlinable public func isIgnored(_ id: Int) -> Bool {
        ignored.contains(id)
    }

    public subscript(index: Int) -> Pointer {
        get { live[index] }
        set { live[index] = newValue }
    }

    /// A pointer goes down (a new `down` of an ignored id ends its ignoring).
    public mutating func add(_ pointer: Pointer) {
        unignore(pointer.id)
        live.append(pointer)
    }

    @discardableResult
    public mutating func remove(at index: Int) -> Pointer {
        live.remove(at: index)
    }

    /// Removes an id from the ignored set; `true` when it was there.
    @discardableResult
    public mutating func unignore(_ id: Int) -> Bool {
        ignored.remove(id)
    }

    /// Moves every live pointer to the ignored set (the contact was cancelled).
    public mutating func ignoreAll() {
        for p in live { ignored.insert(p.id) }
        live.removeAll(keepingCapacity: true)
    }

    /// The centroid of the live pointers.
    public var centroid: (x: Double, y: Double) {
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
