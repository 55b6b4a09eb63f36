import Testing

@testable import GesturePadServer

@Suite struct OutboundQueueTests {
    /// Frames come out in order, each after the requested headroom, and the byte count follows.
    @Test func fifoWithHeadroom() {
        var queue = OutboundQueue()
        queue.append(Array("first".utf8))
        queue.append(Array("second!".utf8))
        #expect(queue.count == 2 && queue.queuedBytes == 12)
        var scratch: [UInt8] = []
        #expect(queue.popFront(into: &scratch, headroom: 4) == 5)
        #expect(scratch.count == 9 && Array(scratch[4...]) == Array("first".utf8))
        #expect(queue.queuedBytes == 7)
        #expect(queue.popFront(into: &scratch, headroom: 4) == 7)
        #expect(Array(scratch[4...]) == Array("second!".utf8))
        #expect(queue.popFront(into: &scratch, headroom: 4) == nil)
        #expect(queue.isEmpty && queue.queuedBytes == 0)
    }

    /// Long-lived queues compact without losing or reordering frames.
    @Test func compactionKeepsOrder() {
        var queue = OutboundQueue()
        var scratch: [UInt8] = []
        var next = 0, expected = 0
        for _ in 0..<200 {
            for _ in 0..<10 {
                queue.append(Array(String(repeating: "x", count: 1000 + next % 7).utf8) + [UInt8(next % 256)])
                next += 1
            }
            for _ in 0..<9 {
                let length = queue.popFront(into: &scratch, headroom: 2)
                #expect(length == 1001 + expected % 7)
                #expect(scratch.last == UInt8(expected % 256))
                expected += 1
            }
        }
        #expect(queue.count == next - expected)
    }

    /// removeAll empties the queue.
    @Test func removeAllEmpties() {
        var queue = OutboundQueue()
        queue.append(Array("a".utf8))
        queue.removeAll()
        var scratch: [UInt8] = []
        #expect(queue.isEmpty && queue.popFront(into: &scratch, headroom: 0) == nil)
    }
}
