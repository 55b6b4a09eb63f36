extension GestureEngine {
    /// Applies one `move` to its pointer (a contact finger or a hovering mouse / pen) and holds
    /// the step open; nothing is judged until the step ends.
    mutating func applyMove(_ s: PointerSample) {
        if let i = pointers.index(of: s.id) {
            pointers[i].move(x: s.x, y: s.y)
            stepT = s.t
            return
        }
        guard s.pointerType != .touch, !pointers.isIgnored(s.id) else { return }
        if let h = hovers.firstIndex(where: { $0.id == s.id }) {
            hovers[h].x = s.x
            hovers[h].y = s.y
            hovers[h].movedInStep = true
        } else if hovers.count < maxPointers {
            hovers.append(
                HoverPointer(
                    id: s.id, pointerType: s.pointerType, x: s.x, y: s.y, lastSentT: s.t, began: false, movedInStep: true))
        } else {
            return
        }
        stepT = s.t
    }

    /// Judges a step: normalises the phase once, then each recognizer compares. Events come
    /// in the order drag, longPressDrag, longPress, scroll, pinch, rotate, timedPress; hover last.
    mutating func judgeStep(at t: Double, into events: inout [GestureEvent]) {
        if var c = contact {
            c.phase.update(pointers)
            var sample = c.phase.sample
            sample.t = t
            velocity.add(sample)
            var beyondSlop = false
            for p in pointers.live where p.maxDistance > config.slop { beyondSlop = true }
            if beyondSlop { c.allWithinSlop = false }
            var timedPressCancelled = false
            if c.maxFingers == 1, beyondSlop {
                if case .pending = c.hold.longPress { c.hold.longPress = .off }
                c.hold.repeats = .off
                switch c.hold.timedPress {
                case .running: timedPressCancelled = true
                case .pending, .off: break
                }
                c.hold.timedPress = .off
            }
            stepMotion(&c, at: t, into: &events)
            if timedPressCancelled, let p = pointers.live.first {
                events.emit(.timedPress, .cancelled, t: t, x: p.x, y: p.y, pointers: c.maxFingers, .duration(t - p.downT))
            }
            contact = c
        }
        stepHovers(at: t, into: &events)
    }

    /// The continuous motion gestures of one step.
    private mutating func stepMotion(_ c: inout Contact, at t: Double, into events: inout [GestureEvent]) {
        let g = c.phase
        let n = g.fingers
        switch c.motion {
        case .idle:
            if n == 2 {
                let pinch = g.spanChange > config.pinchMinSpan
                let rotate = abs(g.angle) > config.rotateMinAngle
                if pinch || rotate {
                    c.motion = .transform(pinch: pinch, rotate: rotate)
                    let v = velocity.velocity(window: config.velocityWindow)
                    if pinch {
                        events.emit(.pinch, .began, t: t, x: g.x, y: g.y, pointers: n, .pinch(scale: g.scale, velocity: v.scale))
                    }
                    if rotate {
                        events.emit(
                            .rotate, .began, t: t, x: g.x, y: g.y, pointers: n, .rotate(angle: g.angle, velocity: v.angle))
                    }
                } else if g.travel > config.scrollMinDistance {
                    c.motion = .scroll(lastDx: g.dx, lastDy: g.dy)
                    emitScroll(g, .began, ddx: g.dx, ddy: g.dy, at: t, into: &events)
                }
            } else if n >= 1 {
                if case .began(let lx, let ly) = c.hold.longPress {
                    let dx = g.x - lx
                    let dy = g.y - ly
                    if !c.hadLongPressDrag, Angle.length(dx: dx, dy: dy) > config.slop {
                        c.hadLongPressDrag = true
                        c.motion = .longPressDrag(startX: lx, startY: ly, lastDx: dx, lastDy: dy)
                        emitMotion(.longPressDrag, .began, g, startX: lx, startY: ly, ddx: dx, ddy: dy, at: t, into: &events)
                    }
                } else if !c.hadLongPressDrag, g.travel > config.dragMinDistance {
                    c.motion = .drag(lastDx: g.dx, lastDy: g.dy)
                    emitMotion(.drag, .began, g, startX: g.startX, startY: g.startY, ddx: g.dx, ddy: g.dy, at: t, into: &events)
                }
            }
        case .drag(let lastDx, let lastDy):
            c.motion = .drag(lastDx: g.dx, lastDy: g.dy)
            emitMotion(
                .drag, .changed, g, startX: g.startX, startY: g.startY, ddx: g.dx - lastDx, ddy: g.dy - lastDy, at: t,
                into: &events)
        case .longPressDrag(let sx, let sy, let lastDx, let lastDy):
            let dx = g.x - sx
            let dy = g.y - sy
            c.motion = .longPressDrag(startX: sx, startY: sy, lastDx: dx, lastDy: dy)
            emitMotion(
                .longPressDrag, .changed, g, startX: sx, startY: sy, ddx: dx - lastDx, ddy: dy - lastDy, at: t, into: &events)
        case .scroll(let lastDx, let lastDy):
            c.motion = .scroll(lastDx: g.dx, lastDy: g.dy)
            emitScroll(g, .changed, ddx: g.dx - lastDx, ddy: g.dy - lastDy, at: t, into: &events)
        case .transform(let pinch, let rotate):
            let v = velocity.velocity(window: config.velocityWindow)
            let pinchNow = pinch || g.spanChange > config.pinchMinSpan
            let rotateNow = rotate || abs(g.angle) > config.rotateMinAngle
            if pinchNow {
                events.emit(
                    .pinch, pinch ? .changed : .began, t: t, x: g.x, y: g.y, pointers: n,
                    .pinch(scale: g.scale, velocity: v.scale))
            }
            if rotateNow {
                events.emit(
                    .rotate, rotate ? .changed : .began, t: t, x: g.x, y: g.y, pointers: n,
                    .rotate(angle: g.angle, velocity: v.angle))
            }
            c.motion = .transform(pinch: pinchNow, rotate: rotateNow)
        }
    }

    /// Hover `began` / `changed` for the mouse and pen pointers moved in this step.
    private mutating func stepHovers(at t: Double, into events: inout [GestureEvent]) {
        for i in hovers.indices where hovers[i].movedInStep {
            hovers[i].movedInStep = false
            let h = hovers[i]
            if !h.began {
                hovers[i].began = true
                hovers[i].lastSentT = t
                events.emit(.hover, .began, t: t, x: h.x, y: h.y, pointers: 0, .pointer(id: h.id, pointerType: h.pointerType))
            } else if t - h.lastSentT >= config.hoverMinInterval {
                hovers[i].lastSentT = t
                events.emit(.hover, .changed, t: t, x: h.x, y: h.y, pointers: 0, .pointer(id: h.id, pointerType: h.pointerType))
            }
        }
    }

    /// `leave`: a hovering pointer left the surface.
    mutating func handleLeave(id: Int, at t: Double, into events: inout [GestureEvent]) {
        guard let h = hovers.firstIndex(where: { $0.id == id }) else { return }
        let hover = hovers.remove(at: h)
        if hover.began {
            events.emit(
                .hover, .ended, t: t, x: hover.x, y: hover.y, pointers: 0, .pointer(id: hover.id, pointerType: hover.pointerType))
        }
    }

    /// `cancel` of `"all"` cancels every hover.
    mutating func cancelHovers(at t: Double, into events: inout [GestureEvent]) {
        for hover in hovers where hover.began {
            events.emit(
                .hover, .cancelled, t: t, x: hover.x, y: hover.y, pointers: 0,
                .pointer(id: hover.id, pointerType: hover.pointerType))
        }
        hovers.removeAll(keepingCapacity: true)
    }
}
