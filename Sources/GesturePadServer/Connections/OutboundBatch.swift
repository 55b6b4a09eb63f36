/// Messages taken from an `OutboundQueue` to be written together: their bytes end to end and
/// where each one ends. Reused from write to write (no allocation once warm).
struct OutboundBatch: Equatable {
    /// The messages' bytes, one after another.
    private(set) var bytes: [UInt8] = []
    /// The end offset of each message in `bytes`.
    private(set) var ends: [Int] = []

    var count: Int { ends.count }

    /// The bytes of message `index`.
    subscript(index: Int) -> ArraySlice<UInt8> {
        bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]]
    }

    mutating func append(_ message: ArraySlice<UInt8>) {
        bytes.append(contentsOf: message)
        ends.append(bytes.count)
    }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
    }
}
