extension GestureEngine {
    /// Emits a `drag` / `longPressDrag` event with its fields, velocity and predicted end.
    func emitMotion(
        _ gesture: GestureKind, _ phase: GesturePhase, _ g: PhaseGeometry, startX: Double, startY: Double,
        ddx: Double, ddy: Double, at t: Double, velocity v: MotionVelocity? = nil, into events: inout [GestureEvent]
    ) {
        let v = v ?? velocity.velocity(window: config.velocityWindow)
        let dx = g.x - startX
        let dy = g.y - startY
        let pdx = dx + v.vx * projection
        let pdy = dy + v.vy * projection
        let fields = MotionFields(
            startX: startX, startY: startY, dx: dx, dy: dy, ddx: ddx, ddy: ddy, vx: v.vx, vy: v.vy,
            predictedX: startX + pdx, predictedY: startY + pdy, predictedDx: pdx, predictedDy: pdy)
        events.emit(gesture, phase, t: t, x: g.x, y: g.y, pointers: g.fingers, .motion(fields))
    }

    /// Emits a `scroll` event.
    func emitScroll(
        _ g: PhaseGeometry, _ phase: GesturePhase, ddx: Double, ddy: Double, at t: Double,
        velocity v: MotionVelocity? = nil, into events: inout [GestureEvent]
    ) {
        let v = v ?? velocity.velocity(window: config.velocityWindow)
        let fields = ScrollFields(dx: g.dx, dy: g.dy, ddx: ddx, ddy: ddy, vx: v.vx, vy: v.vy)
        events.emit(.scroll, phase, t: t, x: g.x, y: g.y, pointers: g.fingers, .scroll(fields))
    }

    /// The phase ends (a finger came down or lifted: `.ended`; a cancel: `.cancelled`): its
    /// continuous motion gesture ends, and an ended one becomes the contact's swipe candidate.
    /// The pointer table holds the fingers at their final positions (an `up` moved its finger).
    mutating func endPhase(_ c: inout Contact, at t: Double, phase: GesturePhase, into events: inout [GestureEvent]) {
        c.phase.update(pointers)
        let g = c.phase
        let v = velocity.velocity(window: config.velocityWindow, stopAt: t, stopTime: config.velocityStopTime)
        var kind = SwipeCandidate.Kind.other
        switch c.motion {
        case .idle:
            return
        case .drag(let lastDx, let lastDy):
            kind = .swipeable(.drag)
            emitMotion(
                .drag, phase, g, startX: g.startX, startY: g.startY, ddx: g.dx - lastDx, ddy: g.dy - lastDy, at: t, velocity: v,
                into: &events)
        case .longPressDrag(let sx, let sy, let lastDx, let lastDy):
            emitMotion(
                .longPressDrag, phase, g, startX: sx, startY: sy, ddx: g.x - sx - lastDx, ddy: g.y - sy - lastDy, at: t,
                velocity: v, into: &events)
        case .scroll(let lastDx, let lastDy):
            kind = .swipeable(.scroll)
            emitScroll(g, phase, ddx: g.dx - lastDx, ddy: g.dy - lastDy, at: t, velocity: v, into: &events)
        case .transform(let pinch, let rotate):
            if pinch {
                events.emit(.pinch, phase, t: t, x: g.x, y: g.y, pointers: g.fingers, .pinch(scale: g.scale, velocity: v.scale))
            }
            if rotate {
                events.emit(.rotate, phase, t: t, x: g.x, y: g.y, pointers: g.fingers, .rotate(angle: g.angle, velocity: v.angle))
            }
        }
        c.motion = .idle
        if phase == .ended {
            c.swipe = SwipeCandidate(kind: kind, dx: g.dx, dy: g.dy, vx: v.vx, vy: v.vy, x: g.x, y: g.y)
        }
    }

    /// The one-finger hold gestures end: `longPress` and `timedPress` go `ended` at a release,
    /// `cancelled` otherwise; every hold timer is dropped.
    mutating func endHold(_ c: inout Contact, at t: Double, release: Bool, into events: inout [GestureEvent]) {
        defer { c.hold = HoldState() }
        // Hold gestures only run in a one-finger contact: they run with that one finger, the
        // first in the table (a second finger is added after this).
        guard let p = pointers.live.first else { return }
        let phase: GesturePhase = release ? .ended : .cancelled
        if case .began = c.hold.longPress {
            events.emit(.longPress, phase, t: t, x: p.x, y: p.y, pointers: 1, .duration(t - p.downT))
        }
        if case .running = c.hold.timedPress {
            events.emit(.timedPress, phase, t: t, x: p.x, y: p.y, pointers: 1, .duration(t - p.downT))
        }
    }

    /// `swipe` at the contact's last up, judged on its last phase in which a motion gesture ran.
    func judgeSwipe(_ c: Contact, upT: Double, into events: inout [GestureEvent]) {
        guard let s = c.swipe, case .swipeable(let ends) = s.kind else { return }
        let duration = upT - c.startT
        guard duration <= config.swipeMaxDuration else { return }
        let horizontal = abs(s.dx) >= abs(s.dy)
        let travel = horizontal ? s.dx : s.dy
        let v = horizontal ? s.vx : s.vy
        let distance = abs(travel)
        let speed = travel >= 0 ? v : -v
        guard distance >= config.swipeMinDistance, speed >= config.swipeMinVelocity else { return }
        let direction: SwipeDirection = horizontal ? (travel >= 0 ? .right : .left) : (travel >= 0 ? .down : .up)
        let fields = SwipeFields(direction: direction, distance: distance, velocity: speed, duration: duration, ends: ends)
        events.emit(.swipe, .ended, t: upT, x: s.x, y: s.y, pointers: c.maxFingers, .swipe(fields))
    }
}
