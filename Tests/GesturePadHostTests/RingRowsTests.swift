import Testing

@testable import GesturePadHost

/// The spotlight's shape: a ring, symmetric, with a hole where the pointer shows.
struct RingRowsTests {
    @Test func aRingWithAHole() {
        let spans = RingRows.spans(diameter: 72, thickness: 8)
        func covered(_ x: Int, _ y: Int) -> Bool { spans.contains { $0.y == y && $0.x <= x && x < $0.x + $0.width } }
        #expect(!covered(36, 36))  // the centre: the pointer shows through
        #expect(covered(36, 2) && covered(2, 36) && covered(69, 36) && covered(36, 69))  // the ring
        #expect(!covered(0, 0) && !covered(71, 71))  // outside the circle
        #expect(!covered(36, 12))  // inside the hole, above the centre
        // Left-right and top-bottom symmetric.
        for span in spans {
            #expect(spans.contains { $0.y == span.y && $0.x == 72 - span.x - span.width && $0.width == span.width })
            #expect(spans.contains { $0.y == 71 - span.y && $0.x == span.x && $0.width == span.width })
        }
        // Rows that cross the hole have two spans, the others one.
        #expect(spans.filter { $0.y == 36 }.count == 2 && spans.filter { $0.y == 2 }.count == 1)
    }

    @Test func degenerate() {
        #expect(RingRows.spans(diameter: 0, thickness: 8).isEmpty)
        let disc = RingRows.spans(diameter: 10, thickness: 20)  // thicker than the radius: a disc
        #expect(!disc.isEmpty && disc.filter { $0.y == 5 }.count == 1)
    }
}
