import GestureControl

/// What a stream of host actions holds down, checked as it is read: no button or key
/// pressed while it is down, none released while it is up (CONTROL.md "Nothing stays
/// pressed on the computer").
public struct PressLedger {
    /// The buttons and keys down, in press order.
    public private(set) var down: [HostAction] = []
    /// The pointer ids of the contacts down on a native touchpad.
    public private(set) var contacts: [Int] = []

    public init() {}

    /// The buttons and keys down, as the page's `held` lists them (no `until`).
    public var snapshot: HeldSnapshot {
        var buttons: [HostButton] = []
        var keys: [HostKey] = []
        for action in down {
            switch action {
            case .button(let button, _): buttons.append(button)
            case .key(let key, _): keys.append(key)
            case .motion, .wheel, .wheelStop, .text, .contact, .touchSurface, .spotlight: break
            }
        }
        return HeldSnapshot(buttons: buttons, keys: keys)
    }

    /// Reads `actions`; a double press or a release of something not held breaks the
    /// invariant (`context` says where, for the crash report).
    public mutating func absorb(_ actions: ArraySlice<HostAction>, _ context: @autoclosure () -> String) {
        for action in actions {
            switch action {
            case .button(let button, .down): press(.button(button, .down), context)
            case .button(let button, .up): release(.button(button, .down), context)
            case .key(let key, .down): press(.key(key, .down), context)
            case .key(let key, .up): release(.key(key, .down), context)
            case .contact(let contact): touch(contact, context)
            case .motion, .wheel, .wheelStop, .text, .touchSurface, .spotlight: break
            }
        }
    }

    /// A contact lands once, moves and lifts only while down.
    private mutating func touch(_ contact: TouchContact, _ context: () -> String) {
        let index = contacts.firstIndex(of: contact.id)
        switch contact.phase {
        case .down:
            invariant(index == nil, "contact \(contact.id) lands while down (\(context()))")
            contacts.append(contact.id)
        case .move:
            invariant(index != nil, "contact \(contact.id) moves while up (\(context()))")
        case .up, .cancel:
            invariant(index != nil, "contact \(contact.id) lifts while up (\(context()))")
            if let index { contacts.remove(at: index) }
        }
    }

    private mutating func press(_ action: HostAction, _ context: () -> String) {
        invariant(!down.contains(action), "\(action) pressed while down (\(context()))")
        down.append(action)
    }

    private mutating func release(_ action: HostAction, _ context: () -> String) {
        let index = down.firstIndex(of: action)
        invariant(index != nil, "release of \(action) while up (\(context()))")
        if let index { down.remove(at: index) }
    }
}
