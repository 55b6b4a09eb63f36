/// The ids of pointers of a cancelled contact, ignored until their `up` or a new `down` of
/// their id (docs/gestures.md "Cancel"). Bounded: a browser sends no `up` after
/// `pointercancel`, so the oldest is forgotten past `limit`. Kept by `PointerRoster`, the one
/// roster of the engine and the control mapper.
public struct IgnoredPointers: Sendable, Hashable {
    /// Ignored ids remembered at most.
    public static let limit = 32

    private var ids: [Int] = []

    public init() {
        ids.reserveCapacity(Self.limit)
    }

    public func contains(_ id: Int) -> Bool {
        ids.contains(id)
    }

    /// Stops ignoring `id`; `true` when it was ignored.
    @discardableResult
    public mutating func remove(_ id: Int) -> Bool {
        guard let index = ids.firstIndex(of: id) else { return false }
        ids.remove(at: index)
        return true
    }

    /// Starts ignoring `id`, forgetting the oldest past `limit`.
    public mutating func insert(_ id: Int) {
        if ids.count == Self.limit { ids.removeFirst() }
        ids.append(id)
    }
}
