import GestureEngine

/// The engine's gesture events of a touch contact: taps click, long-press drags hold the
/// button, two-finger scrolls wheel, pinches zoom, three-finger swipes press keys.
extension ControlMapper {
    /// The most wheel detents one scroll event can make per axis: a guard against absurd
    /// coordinates (a phone screen's whole height at scroll speed 10 is about 400).
    static let maxWheelPerEvent = 1_000.0

    /// Maps one engine event. Events of a contact that did not begin with a touch (a mouse
    /// or pen, or a cancelled one) are ignored; so are `doubleTap` and `singleTapConfirmed`
    /// (each tap already clicked), `drag` (motion comes from raw moves), `rotate` and the rest,
    /// and the gestures hooks claim (`ControlMapper+Claims`); `end` may decide taps held for a
    /// claim. Touches passed through as contacts are not mapped: the desktop does their gestures.
    mutating func map(_ event: GestureEvent, context: EventContext, into actions: inout [HostAction]) {
        guard contact == .touch, contactOwner == nil else { return }
        switch event.gesture {
        case .tap: tap(event, into: &actions)
        case .end: heldTapsContactEnded(at: event.t, into: &actions)
        case .longPressDrag where !isClaimed(event): longPressDrag(event, context: context, into: &actions)
        case .scroll where !isClaimed(event): scroll(event, context: context, into: &actions)
        case .pinch where !isClaimed(event): pinch(event, into: &actions)
        case .swipe where !isClaimed(event): swipe(event, into: &actions)
        default: break
        }
    }

    /// `tap`: ends a drag of this contact first (a tap-and-drag candidate that did not drag
    /// releases, so the next click is a full one; a resumed drag lock releases and does not
    /// click). A tap a hook claims clicks nothing, one a claim may still take waits
    /// (`claimTap`). Then, with tap-to-click, the button of `pointers` fingers: one finger with
    /// tap-and-drag goes down and stays until `t` + `multiTapInterval` (a touch before then
    /// drags with it); otherwise down and up at once.
    mutating func tap(_ event: GestureEvent, into actions: inout [HostAction]) {
        var endsLock = false
        if case .dragging(let drag) = touchButton, drag.origin == .lockResumed { endsLock = true }
        releaseTouchButton(into: &actions)
        guard !endsLock else { return }
        let button = settings.tapToClick ? settings.tapButton(fingers: event.pointers) : nil
        guard !claimTap(event, button: button, into: &actions), let button else { return }
        held.press(.button(button), by: .touch, into: &actions)
        if event.pointers == 1, settings.tapAndDrag {
            touchButton = .tapHeld(button: button, deadline: event.t + gestures.multiTapInterval)
        } else {
            held.release(.button(button), by: .touch, into: &actions)
        }
    }

    /// `longPressDrag`: `began` presses left (right when left-handed), or marks a drag that
    /// already holds a button (tap-and-drag, drag lock) as dragged; `ended` by the finger's
    /// lift finishes the drag (drag lock applies), by anything else (a second finger)
    /// releases; `cancelled` releases.
    mutating func longPressDrag(_ event: GestureEvent, context: EventContext, into actions: inout [HostAction]) {
        switch event.phase {
        case .began:
            if case .dragging(var drag) = touchButton {
                drag.dragged = true
                touchButton = .dragging(drag)
                return
            }
            releaseTouchButton(into: &actions)
            let button: HostButton = settings.leftHanded ? .right : .left
            held.press(.button(button), by: .touch, into: &actions)
            touchButton = .dragging(
                TouchDrag(
                    origin: .longPress, button: button, finger: touches.fingers.first?.id, startX: event.x, startY: event.y,
                    dragged: true))
        case .changed:
            break
        case .ended:
            guard case .dragging(let drag) = touchButton else { return }
            var lifted = false
            if case .up(let id) = context, drag.finger == nil || drag.finger == id { lifted = true }
            finishDrag(drag, lifted: lifted, at: event.t, into: &actions)
        case .cancelled:
            releaseTouchButton(into: &actions)
        }
    }

    /// `scroll`: each event's `ddx`, `ddy` become wheel detents, `d / scrollDistancePerDetent
    /// × scrollSpeed`, fractional; natural scroll negates (fingers up → `dy > 0`, scroll
    /// down). `ended` / `cancelled` send `wheelStop` — except an `ended` by a finger's lift
    /// that starts a coast (kinetic scrolling, `ControlMapper+Coast`): its `wheelStop` comes
    /// when the coast ends.
    mutating func scroll(_ event: GestureEvent, context: EventContext, into actions: inout [HostAction]) {
        switch event.phase {
        case .began, .changed:
            guard case .scroll(let fields) = event.detail else { return }
            scrolling = true
            let k = detentsPerPx
            let dx = Self.clampWheel(fields.ddx * k)
            let dy = Self.clampWheel(fields.ddy * k)
            guard dx != 0 || dy != 0 else { return }
            actions.append(.wheel(dx: dx, dy: dy))
        case .ended, .cancelled:
            guard scrolling else { return }
            if event.phase == .ended, case .up = context, case .scroll(let fields) = event.detail,
                startCoast(at: event.t, vx: fields.vx, vy: fields.vy)
            {
                return
            }
            scrolling = false
            actions.append(.wheelStop)
        }
    }

    /// Wheel detents per CSS px of two-finger travel, signed (natural scroll negates).
    var detentsPerPx: Double {
        let perDetent = settings.scrollDistancePerDetent
        let distance = perDetent.isFinite && perDetent > 0 ? perDetent : 24
        let speed = ControlSettings.scrollSpeedBound.clamped(settings.scrollSpeed) ?? 1
        return (settings.naturalScroll ? -speed : speed) / distance
    }

    /// `pinch` with pinch zoom on: each new whole zoom step (`ZoomStepper`) is one wheel
    /// detent, up (`dy` −1) zooming in, down (+1) out, with Control pressed before the
    /// pinch's first step and released at its end.
    mutating func pinch(_ event: GestureEvent, into actions: inout [HostAction]) {
        switch event.phase {
        case .began, .changed:
            guard case .pinch(let scale, _) = event.detail else { return }
            if event.phase == .began { zoom.reset() }
            let steps = zoom.advance(scale: scale, zoomStep: settings.zoomStep)
            guard steps != 0, settings.pinchZoom else { return }
            held.press(.key(.named(.control)), by: .zoom, into: &actions)
            let detent: Double = steps > 0 ? -1 : 1
            for _ in 0..<steps.magnitude { actions.append(.wheel(dx: 0, dy: detent)) }
        case .ended, .cancelled:
            zoom.reset()
            held.release(.key(.named(.control)), by: .zoom, into: &actions)
        }
    }

    /// A three-finger `swipe` that ends a drag: the configured key combination of its
    /// direction, if any. One that ends a scroll (fingers lifted down to two, then a flick) is
    /// the scroll's end, as for hooks (`SwipeEnd`), and presses nothing.
    mutating func swipe(_ event: GestureEvent, into actions: inout [HostAction]) {
        guard event.pointers == 3, case .swipe(let fields) = event.detail, fields.ends == .drag,
            let combination = settings.swipeKeys[fields.direction]
        else { return }
        pressCombination(modifiers: combination.modifiers, key: combination.key, by: .touch, into: &actions)
    }

    static func clampWheel(_ value: Double) -> Double {
        guard value.isFinite else { return 0 }
        return min(max(value, -maxWheelPerEvent), maxWheelPerEvent)
    }
}
