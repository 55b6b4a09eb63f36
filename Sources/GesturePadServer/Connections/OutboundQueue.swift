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

    /// Moves the oldest frames — as many as fit in `maxBytes`, at least one — into `scratch`
    /// as complete WebSocket text frames (RFC 6455 §5.2: FIN + text opcode, unmasked as a
    /// server sends, the payload length in 7, 16 or 64 bits), ready to be written with one
    /// `send()`. Returns the bytes written and the frames taken, or `nil` when empty.
    mutating func popFramed(into scratch: inout [UInt8], maxBytes: Int) -> (bytes: Int, frames: Int)? {
        guard head < ends.count else { return nil }
        scratch.removeAll(keepingCapacity: true)
        var frames = 0
        while head < ends.count {
            let end = ends[head]
            let length = end - headOffset
            if frames > 0 && scratch.count + length + 10 > maxBytes { break }
            Self.appendTextFrameHeader(length: length, to: &scratch)
            scratch.append(contentsOf: storage[headOffset..<end])
            head += 1
            headOffset = end
            frames += 1
        }
        compactIfWorthIt()
        return (scratch.count, frames)
    }

    /// The header of an unmasked, final text frame carrying `length` payload bytes.
    static func appendTextFrameHeader(length: Int, to out: inout [UInt8]) {
        out.append(0x81)
        if length < 126 {
            out.append(UInt8(length))
        } else if length < 65_536 {
            out.append(126)
            out.append(UInt8(truncatingIfNeeded: length >> 8))
            out.append(UInt8(truncatingIfNeeded: length))
        } else {
            out.append(127)
            for shift in stride(from: 56, through: 0, by: -8) {
                out.append(UInt8(truncatingIfNeeded: length >> shift))
            }
        }
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
