import Testing

@testable import GesturePadServer

@Suite struct OutboundQueueTests {
    /// Frames come out in order, one at a time when only one fits, and the byte count follows.
    @Test func fifoOneAtATime() {
        var queue = OutboundQueue()
        queue.append(Array("first".utf8))
        queue.append(Array("second!".utf8))
        #expect(queue.count == 2 && queue.queuedBytes == 12)
        var scratch: [UInt8] = []
        #expect(queue.popFramed(into: &scratch, maxBytes: 1)?.bytes == 2 + 5)
        #expect(Array(scratch[2...]) == Array("first".utf8))
        #expect(queue.queuedBytes == 7)
        #expect(queue.popFramed(into: &scratch, maxBytes: 1)?.bytes == 2 + 7)
        #expect(Array(scratch[2...]) == Array("second!".utf8))
        #expect(queue.popFramed(into: &scratch, maxBytes: 1) == nil)
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
                let length = queue.popFramed(into: &scratch, maxBytes: 1)?.bytes
                #expect(length == 4 + 1001 + expected % 7)
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
        #expect(queue.isEmpty && queue.popFramed(into: &scratch, maxBytes: 1) == nil)
    }
}

/// Frames handed to lws together, pre-framed (one send per writable).
@Suite struct OutboundQueueFramingTests {
    /// Every payload length gets the right header size (7, 16 or 64 bits) and round-trips.
    @Test(arguments: [0, 1, 125, 126, 65_535, 65_536, 70_000])
    func headerLengths(length: Int) {
        var queue = OutboundQueue()
        let payload = [UInt8](repeating: UInt8(ascii: "a"), count: length)
        queue.append(payload)
        var scratch: [UInt8] = []
        let popped = queue.popFramed(into: &scratch, maxBytes: 1_024)
        let header = length < 126 ? 2 : length < 65_536 ? 4 : 10
        #expect(popped?.bytes == header + length && popped?.frames == 1)
        #expect(WebSocketFrames.textPayloads(scratch[...]) == [String(decoding: payload, as: UTF8.self)])
        #expect(queue.isEmpty)
    }

    /// Queued frames go out together up to maxBytes, in order; the rest waits for the next write.
    @Test func coalescesUpToTheCap() {
        var queue = OutboundQueue()
        for i in 0..<10 { queue.append(Array("frame-\(i)-".utf8) + [UInt8](repeating: 0x78, count: 90)) }
        var scratch: [UInt8] = []
        let first = queue.popFramed(into: &scratch, maxBytes: 450)
        #expect(first?.frames == 4)
        let payloads = WebSocketFrames.textPayloads(scratch[...])
        #expect(payloads.map { $0.prefix(8) } == ["frame-0-", "frame-1-", "frame-2-", "frame-3-"])
        var rest: [String] = []
        while let next = queue.popFramed(into: &scratch, maxBytes: 450) {
            #expect(next.bytes <= 450)
            rest += WebSocketFrames.textPayloads(scratch[...])
        }
        #expect(rest.count == 6 && rest.first?.hasPrefix("frame-4-") == true)
    }
}
