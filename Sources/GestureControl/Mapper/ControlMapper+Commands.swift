/// Keyboard and button-bar commands from the page (CONTROL.md "Page → server: keyboard and
/// buttons").
extension ControlMapper {
    /// A keyboard / button-bar command (already validated).
    /// - `text`: typed as is.
    /// - `key`: modifiers down in the given order, the key down and up, modifiers up in
    ///   reverse. A modifier or key already held (Control during a pinch) is not pressed
    ///   again, nor released by the command.
    /// - `button` `click`: down and up — nothing when the button is already held (it is down;
    ///   a click would cut someone's drag); `down`: pressed unless already held; `up`:
    ///   released whoever holds it (the page's button bar can always let go), nothing when
    ///   not held. Buttons held by commands are released by `releaseAll`, not by a cancel.
    /// - `spotlight`: shown or hidden once (again is nothing); `releaseAll` hides it.
    ///
    /// Any command stops a coast first (kinetic scrolling).
    public mutating func handle(_ command: ControlCommand, into actions: inout [HostAction]) {
        stopCoast(into: &actions)
        switch command {
        case .text(let text):
            actions.append(.text(text))
        case .key(let key, let modifiers):
            pressCombination(modifiers: modifiers, key: key, by: .command, into: &actions)
        case .button(let button, .click):
            guard !held.isHeld(.button(button)) else { return }
            held.press(.button(button), by: .command, into: &actions)
            held.release(.button(button), by: .command, into: &actions)
        case .button(let button, .down):
            guard !held.isHeld(.button(button)) else { return }
            held.press(.button(button), by: .command, into: &actions)
        case .button(let button, .up):
            held.forceRelease(.button(button), into: &actions)
        case .spotlight(let on):
            guard on != spotlightShown else { return }
            spotlightShown = on
            actions.append(.spotlight(on))
        }
    }

    /// Modifiers down in order, the key down and up, modifiers up in reverse, all through
    /// the record of held keys.
    mutating func pressCombination(
        modifiers: [NamedKey], key: HostKey, by owner: HeldInputs.Owners, into actions: inout [HostAction]
    ) {
        for modifier in modifiers { held.press(.key(.named(modifier)), by: owner, into: &actions) }
        held.press(.key(key), by: owner, into: &actions)
        held.release(.key(key), by: owner, into: &actions)
        for modifier in modifiers.reversed() { held.release(.key(.named(modifier)), by: owner, into: &actions) }
    }
}
