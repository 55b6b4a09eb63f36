import GestureEngine

/// Raw touch input: the fingers down, one-finger pointer motion, and the fingers' part in the
/// touch button (tap-and-drag, drag lock).
extension ControlMapper {
    /// A finger goes down. The first finger of a touch contact takes over a button held by a
    /// tap (tap-and-drag) or a drag lock; a second finger while dragging releases the button
    /// first (the engine ends the drag there too). The motion reference moves to the single
    /// finger, or is cleared with two and more.
    mutating func touchDown(_ s: PointerSample, into actions: inout [HostAction]) {
        let first = touches.count == 0
        if startsContact { contact = .touch }
        guard touches.add(id: s.id, x: s.x, y: s.y) else { return }  // already down: ignored
        if first { heldTapsContactStarted(at: s.t) }
        switch touchButton {
        case .tapHeld(let button, _) where first:
            touchButton = .dragging(
                TouchDrag(origin: .tapDrag, button: button, finger: s.id, startX: s.x, startY: s.y, dragged: false))
        case .locked(let button, _) where first:
            touchButton = .dragging(
                TouchDrag(origin: .lockResumed, button: button, finger: s.id, startX: s.x, startY: s.y, dragged: false))
        case .dragging where !first:
            releaseTouchButton(into: &actions)
        case .idle, .tapHeld, .locked, .dragging:
            break
        }
        touchCountChanged(at: s.t)
    }

    /// A finger moves: with exactly one finger down, the pointer follows it.
    mutating func touchMove(_ s: PointerSample, into actions: inout [HostAction]) {
        guard let i = touches.index(of: s.id) else { return }  // not down, or ignored after a cancel
        touches.move(at: i, x: s.x, y: s.y)
        if touches.count == 1 {
            touchMotion.move(x: s.x, y: s.y, t: s.t, settings: settings, into: &actions)
        }
        trackDrag(finger: s.id, x: s.x, y: s.y)
    }

    /// A finger lifts. The dragging finger ends its drag (drag lock, or release), unless an
    /// event of this `up` already did. The `up` of an ignored finger ends its ignoring.
    mutating func touchUp(_ s: PointerSample, into actions: inout [HostAction]) {
        guard let i = touches.index(of: s.id) else {
            touches.unignore(s.id)
            return
        }
        touches.move(at: i, x: s.x, y: s.y)
        trackDrag(finger: s.id, x: s.x, y: s.y)
        if case .dragging(let drag) = touchButton, drag.finger == s.id {
            finishDrag(drag, lifted: true, at: s.t, into: &actions)
        }
        touches.remove(at: i)
        touchCountChanged(at: s.t)
    }

    /// The count of fingers changed: the reference moves to the single finger left (no jump
    /// when a second finger lands or lifts), or is cleared.
    mutating func touchCountChanged(at t: Double) {
        if touches.count == 1, let finger = touches.fingers.first {
            touchMotion.setReference(x: finger.x, y: finger.y, t: t)
        } else {
            touchMotion.clearReference()
        }
    }

    /// Marks the drag as dragged once its finger is beyond the engine's slop (> `slop`) from
    /// where it went down — the same measure that makes a contact not a tap.
    mutating func trackDrag(finger id: Int, x: Double, y: Double) {
        guard case .dragging(var drag) = touchButton, drag.finger == id, !drag.dragged else { return }
        let dx = x - drag.startX
        let dy = y - drag.startY
        guard dx * dx + dy * dy > gestures.slop * gestures.slop else { return }
        drag.dragged = true
        touchButton = .dragging(drag)
    }

    /// A drag ends. A finger that lifted after dragging keeps the button down under drag
    /// lock (until `t` + `dragLockTimeout`); anything else releases it.
    mutating func finishDrag(_ drag: TouchDrag, lifted: Bool, at t: Double, into actions: inout [HostAction]) {
        let timeout = settings.dragLockTimeout
        if lifted, drag.dragged, settings.dragLock, timeout.isFinite, timeout > 0 {
            touchButton = .locked(button: drag.button, deadline: t + timeout)
        } else {
            releaseTouchButton(into: &actions)
        }
    }

    /// The touch gestures' button goes up (if they hold one); back to idle.
    mutating func releaseTouchButton(into actions: inout [HostAction]) {
        switch touchButton {
        case .idle:
            return
        case .tapHeld(let button, _), .locked(let button, _):
            held.release(.button(button), by: .touch, into: &actions)
        case .dragging(let drag):
            held.release(.button(drag.button), by: .touch, into: &actions)
        }
        touchButton = .idle
    }
}
