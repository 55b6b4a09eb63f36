import GestureEngine

/// The bounded queue in front of a `pipe` hook. When the process falls behind (the queue is
/// half full), a `changed` event merges into a `changed` event of the same gesture and session
/// still waiting at the tail (translations `ddx`/`ddy` added up, everything else from the newer
/// event); when it is full, `changed` events are dropped, and other events have a small reserve
/// so a gesture's `ended` is not lost behind its `changed` flood. Player events are queued like
/// a gesture's `ended`, never merged. Everything is counted.
struct PipeQueue: Sendable {
    struct Item: Sendable {
        var payload: HookPayload
        var time: WallTime

        /// The gesture event, if the item is one.
        var event: GestureEvent? { payload.gestureEvent }
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
        if item.event?.phase == .changed {
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
        guard let first = a.event, let second = b.event else { return false }  // player events never merge
        return first.phase == .changed && first.gesture == second.gesture && a.payload.session == b.payload.session
    }

    /// `b` carrying the translation of both (two gesture events of one session).
    static func merge(_ a: Item, _ b: Item) -> Item {
        guard let old = a.event, var new = b.event, let session = b.payload.session else { return b }
        switch (old.detail, new.detail) {
        case (.motion(let before), .motion(var after)):
            after.ddx += before.ddx
            after.ddy += before.ddy
            new.detail = .motion(after)
        case (.scroll(let before), .scroll(var after)):
            after.ddx += before.ddx
            after.ddy += before.ddy
            new.detail = .scroll(after)
        default:
            break  // absolute fields only (scale, angle, duration): the newer value stands
        }
        return Item(payload: .gesture(new, session: session), time: b.time)
    }
}
