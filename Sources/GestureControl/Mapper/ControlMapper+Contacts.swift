import GestureEngine

/// Touches passed through to a native touchpad (`routing` `.contacts`, CONTROL.md "The
/// `touchpad` backend"): every touch pointer is a `TouchContact` from `down` to `up` or
/// `cancel`; nothing else comes from it. The finger table (`touches`) is the one the mapping
/// uses, so a cancelled contact's fingers are ignored until their `up` in both modes.
extension ControlMapper {
    /// The connection whose contacts this mapper passes through, nil when touches are mapped.
    var contactOwner: Int? {
        switch routing {
        case .gestures: nil
        case .contacts(let owner): owner
        }
    }

    /// Tells a native touchpad the connection's surface (its `hello`, a `resize`). Nothing
    /// when touches are mapped.
    public func announceSurface(width: Double, height: Double, into actions: inout [HostAction]) {
        guard let owner = contactOwner else { return }
        actions.append(.touchSurface(owner: owner, width: width, height: height))
    }

    mutating func contactDown(_ s: PointerSample, owner: Int, into actions: inout [HostAction]) {
        if startsContact { contact = .touch }
        guard touches.add(id: s.id, x: s.x, y: s.y) else { return }  // already down: ignored
        pass(.down, s, owner: owner, into: &actions)
    }

    mutating func contactMove(_ s: PointerSample, owner: Int, into actions: inout [HostAction]) {
        guard let i = touches.index(of: s.id) else { return }  // not down, or ignored after a cancel
        touches.move(at: i, x: s.x, y: s.y)
        pass(.move, s, owner: owner, into: &actions)
    }

    mutating func contactUp(_ s: PointerSample, owner: Int, into actions: inout [HostAction]) {
        guard let i = touches.index(of: s.id) else {
            touches.unignore(s.id)
            return
        }
        touches.remove(at: i)
        pass(.up, s, owner: owner, into: &actions)
    }

    /// Every finger down is lifted at once (`cancel`, at the latest touch's time); the caller
    /// then ignores them until their `up`. Nothing when touches are mapped.
    func liftContacts(into actions: inout [HostAction]) {
        guard let owner = contactOwner else { return }
        for finger in touches.fingers {
            actions.append(
                .contact(
                    TouchContact(
                        owner: owner, id: finger.id, phase: .cancel, x: finger.x, y: finger.y, t: lastContactTime)))
        }
    }

    private mutating func pass(
        _ phase: TouchContact.Phase, _ s: PointerSample, owner: Int, into actions: inout [HostAction]
    ) {
        lastContactTime = max(lastContactTime, s.t)
        actions.append(.contact(TouchContact(owner: owner, id: s.id, phase: phase, x: s.x, y: s.y, t: s.t)))
    }
}
