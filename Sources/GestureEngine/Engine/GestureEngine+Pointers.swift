extension GestureEngine {
    /// `down`: hover `ended` (if it was hovering), `press`, then what the new finger ended or
    /// cancelled; a new phase starts.
    mutating func handleDown(_ s: PointerSample, into events: inout [GestureEvent]) {
        if pointers.index(of: s.id) != nil { return }  // already down: ignored
        pointers.unignore(s.id)
        if let h = hovers.firstIndex(where: { $0.id == s.id }) {
            let hover = hovers.remove(at: h)
            if hover.began {
                events.emit(
                    .hover, .ended, t: s.t, x: s.x, y: s.y, pointers: 0, .pointer(id: hover.id, pointerType: hover.pointerType))
            }
        }
        var c: Contact
        if let existing = contact {
            c = existing
            c.maxFingers = max(c.maxFingers, pointers.count + 1)
            events.emit(
                .press, .ended, t: s.t, x: s.x, y: s.y, pointers: c.maxFingers, .pointer(id: s.id, pointerType: s.pointerType))
            endPhase(&c, at: s.t, phase: .ended, into: &events)
            endHold(&c, at: s.t, release: false, into: &events)
        } else {
            c = Contact(startT: s.t)
            c.maxFingers = 1
            if case .pending(let tap) = confirmation { confirmation = .waiting(tap) }
            events.emit(.press, .ended, t: s.t, x: s.x, y: s.y, pointers: 1, .pointer(id: s.id, pointerType: s.pointerType))
            c.hold = .armed(at: s.t, config: config)
        }
        c.lastDownT = s.t
        c.downSumX += s.x
        c.downSumY += s.y
        c.downCount += 1
        pointers.add(TrackedPointer(s))
        beginPhase(&c, at: s.t)
        contact = c
    }

    /// `up`: `release`, the continuous gestures it ended, then — for the last finger —
    /// `tap`, `doubleTap`, `swipe`, `end` and a `singleTapConfirmed` that waited for it.
    mutating func handleUp(_ s: PointerSample, into events: inout [GestureEvent]) {
        guard let i = pointers.index(of: s.id), var c = contact else {
            pointers.unignore(s.id)  // the up of an ignored finger ends its ignoring
            return
        }
        pointers[i].move(x: s.x, y: s.y)
        if pointers[i].maxDistance > config.slop { c.allWithinSlop = false }
        let inside = s.x >= 0 && s.x <= width && s.y >= 0 && s.y <= height
        events.emit(
            .release, .ended, t: s.t, x: s.x, y: s.y, pointers: c.maxFingers,
            .release(id: s.id, inside: inside, duration: s.t - pointers[i].downT))
        endPhase(&c, at: s.t, phase: .ended, into: &events)
        endHold(&c, at: s.t, release: true, into: &events)
        pointers.remove(at: i)
        guard pointers.isEmpty else {
            beginPhase(&c, at: s.t)
            contact = c
            return
        }
        contact = nil
        let outcome = judgeTap(c, upT: s.t, into: &events)
        judgeSwipe(c, upT: s.t, into: &events)
        events.emit(
            .end, .ended, t: s.t, x: s.x, y: s.y, pointers: c.maxFingers, .end(reason: .release, duration: s.t - c.startT))
        resolveConfirmation(outcome, contact: c, at: s.t, into: &events)
    }

    /// `cancel` of a pointer of the contact or `"all"` cancels the whole contact; `"all"`
    /// and a cancel of a hovering pointer's id cancel hover.
    mutating func handleCancel(id: Int?, at t: Double, into events: inout [GestureEvent]) {
        if let id, pointers.index(of: id) == nil {
            if let h = hovers.firstIndex(where: { $0.id == id }) {
                let hover = hovers.remove(at: h)
                if hover.began {
                    events.emit(
                        .hover, .cancelled, t: t, x: hover.x, y: hover.y, pointers: 0,
                        .pointer(id: hover.id, pointerType: hover.pointerType))
                }
            }
            return
        }
        let all = id == nil
        guard var c = contact else {
            if all { cancelHovers(at: t, into: &events) }
            return
        }
        endPhase(&c, at: t, phase: .cancelled, into: &events)
        endHold(&c, at: t, release: false, into: &events)
        if all { cancelHovers(at: t, into: &events) }
        let centroid = pointers.centroid
        events.emit(
            .end, .ended, t: t, x: centroid.x, y: centroid.y, pointers: c.maxFingers,
            .end(reason: .cancel, duration: t - c.startT))
        pointers.ignoreAll()
        contact = nil
        resolveConfirmation(.notTap, contact: c, at: t, into: &events)
    }

    /// Starts a phase from the fingers' positions at `t` (its first velocity sample).
    mutating func beginPhase(_ c: inout Contact, at t: Double) {
        c.phase.begin(pointers)
        c.motion = .idle
        var start = c.phase.sample
        start.t = t
        velocity.reset(start: start)
    }
}
