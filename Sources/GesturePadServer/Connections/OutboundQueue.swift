/// A connection's FIFO of encoded text frames waiting for `SERVER_WRITEABLE`, in one
/// contiguous byte buffer that is reused (no allocation per frame once warm).
struct OutboundQueue {
    private var storage: [UInt8] = []
    /// End offset in `storage` of every queued frame, oldest first (from `head`).
    private var ends: [Int] = []
    private var head = 0
    private var headOffset = 0

    /// Bytes queued and not yet handed out.
    var queuedBytes: Int { storage.count - headOffset }
    /// Frames queued and not yet handed out.
    var count: Int { ends.count - head }
    var isEmpty: Bool { head == ends.count }

    /// Appends one frame.
    mutating func append(_ frame: ArraySlice<UInt8>) {
        storage.append(contentsOf: frame)
        ends.append(storage.count)
    }

    /// Appends one frame.
    mutating func append(_ frame: [UInt8]) {
        append(frame[...])
    }

    /// Moves the oldest frame into `scratch` after `headroom` spare bytes (lws writes its
    /// frame header there) and returns its length, or `nil` when the queue is empty.
    mutating func popFront(into scratch: inout [UInt8], headroom: Int) -> Int? {
        guard head < ends.count else { return nil }
        let end = ends[head]
        let length = end - headOffset
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: repeatElement(0, count: headroom))
        scratch.append(contentsOf: storage[headOffset..<end])
        head += 1
        headOffset = end
        compactIfWorthIt()
        return length
    }

    /// Drops every queued frame.
    mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        head = 0
        headOffset = 0
    }

    private mutating func compactIfWorthIt() {
        if head == ends.count {
            removeAll()
        } else if headOffset >= 65_536 && headOffset * 2 >= storage.count {
            storage.removeSubrange(0..<headOffset)
            ends.removeSubrange(0..<head)
            for index in ends.indices { ends[index] -= headOffset }
            head = 0
            headOffset = 0
        }
    }
}
