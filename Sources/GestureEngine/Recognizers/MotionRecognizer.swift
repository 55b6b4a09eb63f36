/// The continuous motion gestures of a contact's phases — `drag`, `longPressDrag`, `scroll`,
/// `pinch`, `rotate` — with their velocity and predicted end, and the `swipe` judged on the
/// contact's last such phase (GESTURES.md). It keeps what they need of the contact, all
/// private: the current phase's geometry, its motion gesture and velocity samples, the swipe
/// candidate and whether a `longPressDrag` ran. The engine tells it the contact's beginning,
/// each phase's start and end, and each step's fingers.
struct MotionRecognizer: Sendable {
    private let config: GestureConfig
    /// The deceleration projection factor, ms: `r / (1 − r)`, per (px/ms).
    private let projection: Double
    private var velocity = VelocityTracker()
    /// The current phase's normalised geometry.
    private var phase = PhaseGeometry()
    /// The continuous gesture of the current phase.
    private var motion: PhaseMotion = .idle
    /// The last phase of the contact in which a continuous motion gesture ran, for `swipe`.
    private var swipe: SwipeCandidate?
    /// A `longPressDrag` ran in this contact (at most one does; no `drag` after it).
    private var hadLongPressDrag = false

    init(config: GestureConfig) {
        self.config = config
        let r = min(max(config.decelerationRate, 0), 0.999_999)
        projection = r / (1 - r) / 1000
    }

    /// A contact begins (its first finger down): nothing of the last one is kept.
    mutating func contactBegan() {
        swipe = nil
        hadLongPressDrag = false
    }

    /// Starts a phase from the fingers' positions at `t` (its first velocity sample).
    mutating func begin(_ pointers: PointerRoster<TrackedPointer>, at t: Double) {
        phase.begin(pointers)
        motion = .idle
        var start = phase.sample
        start.t = t
        velocity.reset(start: start)
    }

    /// The phase's fingers at `t`, once per step before `step`: the geometry and a velocity
    /// sample.
    mutating func sample(_ pointers: PointerRoster<TrackedPointer>, at t: Double) {
        phase.update(pointers)
        var sample = phase.sample
        sample.t = t
        velocity.add(sample)
    }

    /// The continuous motion gestures of one step.
    /// `longPress`: the contact's long press (a `longPressDrag` starts where it began).
    mutating func step(longPress: HoldState.LongPress, at t: Double, into events: inout [GestureEvent]) {
        let g = phase
        let n = g.fingers
        switch motion {
        case .idle:
            if n == 2 {
                let pinch = g.spanChange > config.pinchMinSpan
                let rotate = abs(g.angle) > config.rotateMinAngle
                if pinch || rotate {
                    motion = .transform(pinch: pinch, rotate: rotate)
                    let v = velocity.velocity(window: config.velocityWindow)
                    if pinch {
                        events.emit(.pinch, .began, t: t, x: g.x, y: g.y, pointers: n, .pinch(scale: g.scale, velocity: v.scale))
                    }
                    if rotate {
                        events.emit(
                            .rotate, .began, t: t, x: g.x, y: g.y, pointers: n, .rotate(angle: g.angle, velocity: v.angle))
                    }
                } else if g.travel > config.scrollMinDistance {
                    motion = .scroll(lastDx: g.dx, lastDy: g.dy)
                    emitScroll(g, .began, ddx: g.dx, ddy: g.dy, at: t, into: &events)
                }
            } else if n >= 1 {
                if case .began(let lx, let ly) = longPress {
                    let dx = g.x - lx
                    let dy = g.y - ly
                    if !hadLongPressDrag, Angle.length(dx: dx, dy: dy) > config.slop {
                        hadLongPressDrag = true
                        motion = .longPressDrag(startX: lx, startY: ly, lastDx: dx, lastDy: dy)
                        emitMotion(.longPressDrag, .began, g, startX: lx, startY: ly, ddx: dx, ddy: dy, at: t, into: &events)
                    }
                } else if !hadLongPressDrag, g.travel > config.dragMinDistance {
                    motion = .drag(lastDx: g.dx, lastDy: g.dy)
                    emitMotion(.drag, .began, g, startX: g.startX, startY: g.startY, ddx: g.dx, ddy: g.dy, at: t, into: &events)
                }
            }
        case .drag(let lastDx, let lastDy):
            motion = .drag(lastDx: g.dx, lastDy: g.dy)
            emitMotion(
                .drag, .changed, g, startX: g.startX, startY: g.startY, ddx: g.dx - lastDx, ddy: g.dy - lastDy, at: t,
                into: &events)
        case .longPressDrag(let sx, let sy, let lastDx, let lastDy):
            let dx = g.x - sx
            let dy = g.y - sy
            motion = .longPressDrag(startX: sx, startY: sy, lastDx: dx, lastDy: dy)
            emitMotion(
                .longPressDrag, .changed, g, startX: sx, startY: sy, ddx: dx - lastDx, ddy: dy - lastDy, at: t, into: &events)
        case .scroll(let lastDx, let lastDy):
            motion = .scroll(lastDx: g.dx, lastDy: g.dy)
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
            motion = .transform(pinch: pinchNow, rotate: rotateNow)
        }
    }

    /// The phase ends (a finger came down or lifted: `.ended`; a cancel: `.cancelled`): its
    /// continuous motion gesture ends, and an ended one becomes the contact's swipe candidate.
    /// `pointers` holds the fingers at their final positions (an `up` moved its finger).
    mutating func end(
        _ pointers: PointerRoster<TrackedPointer>, at t: Double, phase ending: GesturePhase,
        into events: inout [GestureEvent]
    ) {
        phase.update(pointers)
        let g = phase
        let v = velocity.velocity(window: config.velocityWindow, stopAt: t, stopTime: config.velocityStopTime)
        var kind = SwipeCandidate.Kind.other
        switch motion {
        case .idle:
            return
        case .drag(let lastDx, let lastDy):
            kind = .swipeable(.drag)
            emitMotion(
                .drag, ending, g, startX: g.startX, startY: g.startY, ddx: g.dx - lastDx, ddy: g.dy - lastDy, at: t, velocity: v,
                into: &events)
        case .longPressDrag(let sx, let sy, let lastDx, let lastDy):
            emitMotion(
                .longPressDrag, ending, g, startX: sx, startY: sy, ddx: g.x - sx - lastDx, ddy: g.y - sy - lastDy, at: t,
                velocity: v, into: &events)
        case .scroll(let lastDx, let lastDy):
            kind = .swipeable(.scroll)
            emitScroll(g, ending, ddx: g.dx - lastDx, ddy: g.dy - lastDy, at: t, velocity: v, into: &events)
        case .transform(let pinch, let rotate):
            if pinch {
                events.emit(.pinch, ending, t: t, x: g.x, y: g.y, pointers: g.fingers, .pinch(scale: g.scale, velocity: v.scale))
            }
            if rotate {
                events.emit(
                    .rotate, ending, t: t, x: g.x, y: g.y, pointers: g.fingers, .rotate(angle: g.angle, velocity: v.angle))
            }
        }
        motion = .idle
        if ending == .ended {
            swipe = SwipeCandidate(kind: kind, dx: g.dx, dy: g.dy, vx: v.vx, vy: v.vy, x: g.x, y: g.y)
        }
    }

    /// `swipe` at the contact's last up, judged on its last phase in which a motion gesture ran.
    /// `startT` and `fingers`: the contact's first down and the most fingers it had.
    func judgeSwipe(startT: Double, fingers: Int, upT: Double, into events: inout [GestureEvent]) {
        guard let s = swipe, case .swipeable(let ends) = s.kind else { return }
        let duration = upT - startT
        guard duration <= config.swipeMaxDuration else { return }
        let horizontal = abs(s.dx) >= abs(s.dy)
        let travel = horizontal ? s.dx : s.dy
        let v = horizontal ? s.vx : s.vy
        let distance = abs(travel)
        let speed = travel >= 0 ? v : -v
        guard distance >= config.swipeMinDistance, speed >= config.swipeMinVelocity else { return }
        let direction: SwipeDirection = horizontal ? (travel >= 0 ? .right : .left) : (travel >= 0 ? .down : .up)
        let fields = SwipeFields(direction: direction, distance: distance, velocity: speed, duration: duration, ends: ends)
        events.emit(.swipe, .ended, t: upT, x: s.x, y: s.y, pointers: fingers, .swipe(fields))
    }

    /// Emits a `drag` / `longPressDrag` event with its fields, velocity and predicted end.
    private func emitMotion(
        _ gesture: GestureKind, _ eventPhase: GesturePhase, _ g: PhaseGeometry, startX: Double, startY: Double,
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
        events.emit(gesture, eventPhase, t: t, x: g.x, y: g.y, pointers: g.fingers, .motion(fields))
    }

    /// Emits a `scroll` event.
    private func emitScroll(
        _ g: PhaseGeometry, _ eventPhase: GesturePhase, ddx: Double, ddy: Double, at t: Double,
        velocity v: MotionVelocity? = nil, into events: inout [GestureEvent]
    ) {
        let v = v ?? velocity.velocity(window: config.velocityWindow)
        let fields = ScrollFields(dx: g.dx, dy: g.dy, ddx: ddx, ddy: ddy, vx: v.vx, vy: v.vy)
        events.emit(.scroll, eventPhase, t: t, x: g.x, y: g.y, pointers: g.fingers, .scroll(fields))
    }
}
