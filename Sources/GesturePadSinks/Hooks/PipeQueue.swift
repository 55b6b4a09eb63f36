import GestureEngine

/// The bounded queue in front of a `pipe` hook. When the process falls behind (the queue is
/// half full), a `changed` event merges into a `changed` event of the same gesture and session
/// still waiting at the tail (translations `ddx`/`ddy` added up, everything else from the newer
/// event); when it is full, `changed` events are dropped, and other events have a small reserve
/// so a gesture's `ended` is not lost behind its `changed` flood. Everything is counted.
struct PipeQueue: Sendable {
    struct Item: Sendable {
        var event: GestureEvent
        var session: String
        var time: WallTime
    }

    let limit: Int
    /// Extra room for non-`changed` events once `changed` ones are being dropped.
    var reserve: Int { max(16, limit / 4) }
    private(set) var items: [Item] = []
    private(set) var coalesced = 0
    private(set) var dropped = 0

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    var isEmpty: Bool { items.isEmpty }

    mutating func push(_ item: Item) {
        if item.event.phase == .changed {
            if items.count * 2 >= limit, let last = items.last, Self.canMerge(last, item) {
                items[items.count - 1] = Self.merge(last, item)
                coalesced += 1
                return
            }
            guard items.count < limit else { dropped += 1; return }
        } else {
            guard items.count < limit + reserve else { dropped += 1; return }
        }
        items.append(item)
    }

    /// Takes every queued item, leaving the buffer's capacity for reuse.
    mutating func take(into batch: inout [Item]) {
        swap(&batch, &items)
        items.removeAll(keepingCapacity: true)
    }

    /// Counts lost items (e.g. a batch whose write failed).
    mutating func countDropped(_ n: Int) { dropped += n }

    static func canMerge(_ a: Item, _ b: Item) -> Bool {
        a.event.phase == .changed && a.event.gesture == b.event.gesture && a.session == b.session
    }

    /// `b` carrying the translation of both.
    static func merge(_ a: Item, _ b: Item) -> Item {
        var merged = b
        switch (a.event.detail, b.event.detail) {
        case (.motion(let old), .motion(var new)):
            new.ddx += old.ddx
            new.ddy += old.ddy
            merged.event.detail = .motion(new)
        case (.scroll(let old), .scroll(var new)):
            new.ddx += old.ddx
            new.ddy += old.ddy
            merged.event.detail = .scroll(new)
        default:
            break  // absolute fields only (scale, angle, duration): the newer value stands
        }
        return merged
    }
}
