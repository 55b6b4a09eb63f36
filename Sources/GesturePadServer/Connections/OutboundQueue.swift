/// A connection's FIFO of encoded messages waiting to be written, in one contiguous byte
/// buffer that is reused (no allocation per message once warm). Transport-independent: the
/// transport frames what it takes (`Bridge/WebSocketFraming.swift`).
struct OutboundQueue {
    private var storage: [UInt8] = []
    /// End offset in `storage` of every queued frame, oldest first (from `head`).
    private var ends: [Int] = []
    private var head = 0
    private var headOffset = 0

    /// Bytes queued and not yet handed out.
    var queuedBytes: Int { storage.count - headOffset }
    /// Messages queued and not yet handed out.
    var count: Int { ends.count - head }
    var isEmpty: Bool { head == ends.count }

    /// Appends one message.
    mutating func append(_ frame: ArraySlice<UInt8>) {
        storage.append(contentsOf: frame)
        ends.append(storage.count)
    }

    /// Appends one message.
    mutating func append(_ frame: [UInt8]) {
        append(frame[...])
    }

    /// Moves the oldest messages — as many as fit in `maxBytes`, at least one — into `batch`
    /// (emptied first), to be written together. Returns the number taken (0 when empty).
    @discardableResult
    mutating func pop(into batch: inout OutboundBatch, maxBytes: Int) -> Int {
        batch.removeAll()
        var taken = 0
        var bytes = 0
        while head < ends.count {
            let end = ends[head]
            let length = end - headOffset
            if taken > 0 && bytes + length > maxBytes { break }
            batch.append(storage[headOffset..<end])
            bytes += length
            head += 1
            headOffset = end
            taken += 1
        }
        compactIfWorthIt()
        return taken
    }

    /// The most of its buffers an emptied queue keeps for reuse, in bytes: the everyday traffic
    /// between two writes fits (no allocation per message once warm), while a burst's buffers
    /// (a reader that fell behind, up to the hard cap) are given back once it drains instead of
    /// staying with the connection for its whole life (issue 35).
    static let keptCapacity = 16 * 1024

    /// Bytes of buffer the queue holds on to, used or not.
    var retainedBytes: Int {
        storage.capacity + ends.capacity * MemoryLayout<Int>.stride
    }

    /// Drops every queued message; keeps the buffers for reuse unless a burst made them larger
    /// than `keptCapacity`.
    mutating func removeAll() {
        storage.removeAll(keepingCapacity: storage.capacity <= Self.keptCapacity)
        ends.removeAll(keepingCapacity: ends.capacity * MemoryLayout<Int>.stride <= Self.keptCapacity)
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
