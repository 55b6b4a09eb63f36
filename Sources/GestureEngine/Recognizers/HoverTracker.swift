/// `hover` (GESTURES.md "hover"): the mouse and pen pointers moving over the surface with no
/// button held, at most `limit` of them. The engine hands it the moves of pointers that are not
/// down and tells it when a step ends, a hovering pointer goes down, leaves or is cancelled.
struct HoverTracker: Sendable {
    private let limit: Int
    private let minInterval: Double
    private var hovers: [HoverPointer] = []

    init(limit: Int, minInterval: Double) {
        self.limit = limit
        self.minInterval = minInterval
        hovers.reserveCapacity(4)
    }

    /// A move of pointer `s` (not a touch, not down): tracked, unless `limit` others are.
    /// Returns whether it was (the step then holds it).
    mutating func move(_ s: PointerSample) -> Bool {
        if let h = hovers.firstIndex(where: { $0.id == s.id }) {
            hovers[h].x = s.x
            hovers[h].y = s.y
            hovers[h].movedInStep = true
        } else if hovers.count < limit {
            hovers.append(
                HoverPointer(
                    id: s.id, pointerType: s.pointerType, x: s.x, y: s.y, lastSentT: s.t, began: false, movedInStep: true))
        } else {
            return false
        }
        return true
    }

    /// The step at `t` ends: hover `began` / `changed` for the pointers moved in it.
    mutating func step(at t: Double, into events: inout [GestureEvent]) {
        for i in hovers.indices where hovers[i].movedInStep {
            hovers[i].movedInStep = false
            let h = hovers[i]
            if !h.began {
                hovers[i].began = true
                hovers[i].lastSentT = t
                events.emit(.hover, .began, t: t, x: h.x, y: h.y, pointers: 0, .pointer(id: h.id, pointerType: h.pointerType))
            } else if t - h.lastSentT >= minInterval {
                hovers[i].lastSentT = t
                events.emit(.hover, .changed, t: t, x: h.x, y: h.y, pointers: 0, .pointer(id: h.id, pointerType: h.pointerType))
            }
        }
    }

    /// Pointer `s` went down: its hover ends where it went down.
    mutating func wentDown(_ s: PointerSample, into events: inout [GestureEvent]) {
        guard let hover = remove(s.id), hover.began else { return }
        events.emit(.hover, .ended, t: s.t, x: s.x, y: s.y, pointers: 0, .pointer(id: hover.id, pointerType: hover.pointerType))
    }

    /// `leave`: pointer `id` left the surface.
    mutating func leave(id: Int, at t: Double, into events: inout [GestureEvent]) {
        guard let hover = remove(id), hover.began else { return }
        events.emit(
            .hover, .ended, t: t, x: hover.x, y: hover.y, pointers: 0, .pointer(id: hover.id, pointerType: hover.pointerType))
    }

    /// `cancel` of pointer `id`, or of every hover (nil: `"all"`).
    mutating func cancel(id: Int?, at t: Double, into events: inout [GestureEvent]) {
        guard let id else {
            for hover in hovers where hover.began { emitCancelled(hover, at: t, into: &events) }
            hovers.removeAll(keepingCapacity: true)
            return
        }
        guard let hover = remove(id), hover.began else { return }
        emitCancelled(hover, at: t, into: &events)
    }

    private mutating func remove(_ id: Int) -> HoverPointer? {
        hovers.firstIndex(where: { $0.id == id }).map { hovers.remove(at: $0) }
    }

    private func emitCancelled(_ hover: HoverPointer, at t: Double, into events: inout [GestureEvent]) {
        events.emit(
            .hover, .cancelled, t: t, x: hover.x, y: hover.y, pointers: 0, .pointer(id: hover.id, pointerType: hover.pointerType))
    }
}
