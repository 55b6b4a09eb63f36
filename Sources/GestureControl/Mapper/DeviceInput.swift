import GestureEngine

/// A mouse or pen on the page (`DevicePointers`' slots): its moves move the pointer (hover
/// too), its buttons are the computer's buttons, pressed and released through the mapper's
/// record of what is held, each slot the owner of what it pressed.
struct DeviceInput: Sendable {
    private var devices = DevicePointers()

    /// Whether a mouse / pen pointer of a live contact is down.
    var anyContactDown: Bool { devices.anyContactDown }

    /// Whether `id` is a mouse or pen pointer it knows.
    func knows(_ id: Int) -> Bool { devices.slot(of: id) != nil }

    /// A mouse / pen pointer goes down: its buttons follow `buttons` (none or 0: the primary
    /// button). A pointer already down is ignored (false); the pointer of a cancelled contact
    /// starts afresh.
    mutating func down(
        _ s: PointerSample, settings: ControlSettings, held: inout HeldInputs, into actions: inout [HostAction]
    ) -> Bool {
        guard let slot = devices.slot(for: s.id) else { return false }
        if devices[slot].isDown, !devices[slot].buttonsIgnored { return false }
        devices[slot].isDown = true
        devices[slot].buttonsIgnored = false
        if !devices[slot].motion.hasReference {
            devices[slot].motion.setReference(x: s.x, y: s.y, t: s.t)
        }
        let buttons = s.buttons ?? 0
        followButtons(slot: slot, buttons: buttons == 0 ? 1 : buttons, settings: settings, held: &held, into: &actions)
        return true
    }

    /// A mouse / pen move, hovering or down: the pointer moves by its delta (the first move
    /// of a pointer only sets the reference). While down, its buttons follow `buttons` when
    /// the page sent it.
    mutating func move(
        _ s: PointerSample, settings: ControlSettings, held: inout HeldInputs, into actions: inout [HostAction]
    ) {
        guard let slot = devices.slot(for: s.id) else { return }
        devices[slot].motion.move(x: s.x, y: s.y, t: s.t, settings: settings, into: &actions)
        if devices[slot].isDown, !devices[slot].buttonsIgnored, let buttons = s.buttons {
            followButtons(slot: slot, buttons: buttons, settings: settings, held: &held, into: &actions)
        }
    }

    /// A mouse / pen pointer goes up: every button it holds is released.
    mutating func up(_ s: PointerSample, held: inout HeldInputs, into actions: inout [HostAction]) {
        guard let slot = devices.slot(of: s.id), devices[slot].isDown else { return }
        held.release(ownedBy: .device(slot), into: &actions)
        devices[slot].held = []
        devices[slot].isDown = false
        devices[slot].buttonsIgnored = false
    }

    /// A hovering pointer left the surface: the next move only sets a new reference.
    mutating func leave(id: Int) {
        guard let slot = devices.slot(of: id) else { return }
        devices[slot].motion.clearReference()
        if !devices[slot].isDown { devices.free(slot) }
    }

    /// A `cancel` of pointer `id` (not a finger): whether it cancels the contact — a pointer
    /// down in a live contact. One hovering, or down in a contact already cancelled, only has
    /// its motion reference reset; an unknown one is nothing.
    mutating func cancelsContact(id: Int) -> Bool {
        guard let slot = devices.slot(of: id) else { return false }
        guard devices[slot].isDown, !devices[slot].buttonsIgnored else {
            devices[slot].motion.clearReference()
            return false
        }
        return true
    }

    /// The contact was cancelled (`all`: every pointer): the pointers down are ignored until
    /// their `up` (their buttons were released by owner), and their motion starts afresh.
    mutating func contactCancelled(all: Bool) {
        for slot in devices.slots.indices where devices[slot].inUse {
            if devices[slot].isDown { devices[slot].buttonsIgnored = true }
            devices[slot].held = []
            if devices[slot].isDown || all { devices[slot].motion.clearReference() }
        }
    }

    /// `releaseAll`: the pointers down are ignored until their `up`, and every motion resets.
    mutating func releaseAll() {
        for slot in devices.slots.indices {
            if devices[slot].isDown { devices[slot].buttonsIgnored = true }
            devices[slot].held = []
            devices[slot].motion.reset()
        }
    }

    /// Presses and releases so that the pointer holds exactly the buttons of a
    /// `PointerEvent.buttons` bitmask (releases first; left, right, middle order).
    private mutating func followButtons(
        slot: Int, buttons: Int, settings: ControlSettings, held: inout HeldInputs, into actions: inout [HostAction]
    ) {
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
