import GestureEngine

/// A mouse or pen on the page: its moves move the pointer (hover too), its buttons are the
/// computer's buttons.
extension ControlMapper {
    /// A mouse / pen pointer goes down: its buttons follow `buttons` (none or 0: the primary
    /// button). A pointer already down is ignored; the pointer of a cancelled contact starts
    /// afresh.
    mutating func deviceDown(_ s: PointerSample, into actions: inout [HostAction]) {
        let starts = startsContact
        guard let slot = devices.slot(for: s.id) else { return }
        if devices[slot].isDown, !devices[slot].buttonsIgnored { return }
        if starts { contact = .device }
        devices[slot].isDown = true
        devices[slot].buttonsIgnored = false
        if !devices[slot].motion.hasReference {
            devices[slot].motion.setReference(x: s.x, y: s.y, t: s.t)
        }
        let buttons = s.buttons ?? 0
        followButtons(slot: slot, buttons: buttons == 0 ? 1 : buttons, into: &actions)
    }

    /// A mouse / pen move, hovering or down: the pointer moves by its delta (the first move
    /// of a pointer only sets the reference). While down, its buttons follow `buttons` when
    /// the page sent it.
    mutating func deviceMove(_ s: PointerSample, into actions: inout [HostAction]) {
        guard let slot = devices.slot(for: s.id) else { return }
        devices[slot].motion.move(x: s.x, y: s.y, t: s.t, settings: settings, into: &actions)
        if devices[slot].isDown, !devices[slot].buttonsIgnored, let buttons = s.buttons {
            followButtons(slot: slot, buttons: buttons, into: &actions)
        }
    }

    /// A mouse / pen pointer goes up: every button it holds is released.
    mutating func deviceUp(_ s: PointerSample, into actions: inout [HostAction]) {
        guard let slot = devices.slot(of: s.id), devices[slot].isDown else { return }
        held.release(ownedBy: .device(slot), into: &actions)
        devices[slot].held = []
        devices[slot].isDown = false
        devices[slot].buttonsIgnored = false
    }

    /// A hovering pointer left the surface: the next move only sets a new reference.
    mutating func deviceLeave(id: Int) {
        guard let slot = devices.slot(of: id) else { return }
        devices[slot].motion.clearReference()
        if !devices[slot].isDown { devices.free(slot) }
    }

    /// Presses and releases so that the pointer holds exactly the buttons of a
    /// `PointerEvent.buttons` bitmask (releases first; left, right, middle order).
    mutating func followButtons(slot: Int, buttons: Int, into actions: inout [HostAction]) {
        let wanted = ButtonMask(pointerButtons: buttons, leftHanded: settings.leftHanded)
        let had = devices[slot].held
        guard wanted != had else { return }
        let owner = HeldInputs.Owners.device(slot)
        for button in ButtonMask.order where had.contains(ButtonMask(button)) && !wanted.contains(ButtonMask(button)) {
            held.release(.button(button), by: owner, into: &actions)
        }
        for button in ButtonMask.order where wanted.contains(ButtonMask(button)) && !had.contains(ButtonMask(button)) {
            held.press(.button(button), by: owner, into: &actions)
        }
        devices[slot].held = wanted
    }
}
