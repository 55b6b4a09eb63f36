import Testing

@testable import GesturePadServer

@Suite struct OutboundQueueTests {
    /// Messages come out in order, one at a time when only one fits, and the byte count follows.
    @Test func fifoOneAtATime() {
        var queue = OutboundQueue()
        queue.append(Array("first".utf8))
        queue.append(Array("second!".utf8))
        #expect(queue.count == 2 && queue.queuedBytes == 12)
        var batch = OutboundBatch()
        #expect(queue.pop(into: &batch, maxBytes: 1) == 1)
        #expect(batch.texts == ["first"])
        #expect(queue.queuedBytes == 7)
        #expect(queue.pop(into: &batch, maxBytes: 1) == 1)
        #expect(batch.texts == ["second!"])
        #expect(queue.pop(into: &batch, maxBytes: 1) == 0)
        #expect(batch.count == 0)
        #expect(queue.isEmpty && queue.queuedBytes == 0)
    }

    /// Long-lived queues compact without losing or reordering messages.
    @Test func compactionKeepsOrder() {
        var queue = OutboundQueue()
        var batch = OutboundBatch()
        var next = 0, expected = 0
        for _ in 0..<200 {
            for _ in 0..<10 {
                queue.append(Array(String(repeating: "x", count: 1000 + next % 7).utf8) + [UInt8(next % 256)])
                next += 1
            }
            for _ in 0..<9 {
                queue.pop(into: &batch, maxBytes: 1)
                #expect(batch.count == 1)
                #expect(batch[0].count == 1001 + expected % 7)
                #expect(batch[0].last == UInt8(expected % 256))
                expected += 1
            }
        }
        #expect(queue.count == next - expected)
    }

    /// A burst (a reader that fell behind: 1 MiB queued) gives its buffers back once it has
    /// drained; everyday traffic keeps its small buffer from one write to the next.
    @Test func drainedBurstGivesItsBuffersBack() {
        var queue = OutboundQueue()
        var batch = OutboundBatch()
        queue.append([UInt8](repeating: 0x78, count: 200))
        queue.pop(into: &batch, maxBytes: 65_536)
        let everyday = queue.retainedBytes
        #expect(everyday > 0 && everyday <= OutboundQueue.keptCapacity)
        queue.append([UInt8](repeating: 0x78, count: 200))
        #expect(queue.retainedBytes == everyday)  // reused, not reallocated
        queue.pop(into: &batch, maxBytes: 65_536)

        for _ in 0..<5_000 { queue.append([UInt8](repeating: 0x79, count: 200)) }
        #expect(queue.retainedBytes >= 1_000_000)
        var drained = 0
        while queue.pop(into: &batch, maxBytes: 65_536) > 0 { drained += batch.count }
        #expect(drained == 5_000 && queue.isEmpty)
        #expect(queue.retainedBytes <= OutboundQueue.keptCapacity)
    }

    /// removeAll empties the queue.
    @Test func removeAllEmpties() {
        var queue = OutboundQueue()
        queue.append(Array("a".utf8))
        queue.removeAll()
        var batch = OutboundBatch()
        #expect(queue.isEmpty && queue.pop(into: &batch, maxBytes: 1) == 0)
    }

    /// Queued messages are taken together up to maxBytes, in order; the rest waits for the next write.
    @Test func batchesUpToTheCap() {
        var queue = OutboundQueue()
        for i in 0..<10 { queue.append(Array("frame-\(i)-".utf8) + [UInt8](repeating: 0x78, count: 90)) }
        var batch = OutboundBatch()
        #expect(queue.pop(into: &batch, maxBytes: 450) == 4)
        #expect(batch.texts.map { $0.prefix(8) } == ["frame-0-", "frame-1-", "frame-2-", "frame-3-"])
        var rest: [String] = []
        while queue.pop(into: &batch, maxBytes: 450) > 0 {
            #expect(batch.texts.reduce(0) { $0 + $1.utf8.count } <= 450)
            rest += batch.texts
        }
        #expect(rest.count == 6 && rest.first?.hasPrefix("frame-4-") == true)
    }
}

/// The bridge frames each write's messages itself (one send per writable, `LWS_WRITE_RAW`).
@Suite struct WebSocketFramingTests {
    /// Every payload length gets the right header size (7, 16 or 64 bits) and round-trips.
    @Test(arguments: [0, 1, 125, 126, 65_535, 65_536, 70_000])
    func headerLengths(length: Int) {
        let payload = [UInt8](repeating: UInt8(ascii: "a"), count: length)
        var framed: [UInt8] = []
        WebSocketFraming.appendTextFrame(payload[...], to: &framed)
        let header = length < 126 ? 2 : length < 65_536 ? 4 : 10
        #expect(framed.count == header + length)
        #expect(WebSocketFrames.textPayloads(framed[...]) == [String(decoding: payload, as: UTF8.self)])
    }

    /// A batch becomes its messages' frames back to back, in order, replacing what the buffer held.
    @Test func batchFramesInOrder() {
        var batch = OutboundBatch()
        for text in ["one", String(repeating: "b", count: 300), ""] { batch.append(Array(text.utf8)[...]) }
        var scratch: [UInt8] = [9, 9, 9]
        WebSocketFraming.frame(batch, into: &scratch)
        #expect(WebSocketFrames.textPayloads(scratch[...]) == batch.texts)
        #expect(scratch.count == (2 + 3) + (4 + 300) + 2)
    }
}
