/// The button the touch gestures hold, as one state machine (drawn in
/// docs/control-mapping.md):
///
/// ```
/// idle ──tap, 1 finger, tapAndDrag──▶ tapHeld ──deadline──▶ idle (release)
///   │                                    │ touch down
///   │ longPressDrag began                ▼
///   └──────────────────────────────▶ dragging ──lift, dragged, dragLock──▶ locked
///        (release: lift, 2nd finger,     ▲                                  │
///         cancel; a tap releases         └────────── touch down ────────────┤
///         without clicking when it                                          │ deadline
///         resumed a lock)                                          idle ◀───┘ (release)
/// ```
enum TouchButton: Sendable {
    /// Nothing held by touch gestures.
    case idle
    /// A one-finger tap pressed `button`; it goes up at `deadline` (tap `t` +
    /// `multiTapInterval`) unless a finger comes down first.
    case tapHeld(button: HostButton, deadline: Double)
    /// A finger drags with `button` held.
    case dragging(TouchDrag)
    /// Drag lock: the dragging finger lifted; `button` stays down until a finger comes back
    /// or `deadline` (lift `t` + `dragLockTimeout`) passes.
    case locked(button: HostButton, deadline: Double)

    /// The pending deadline, if any.
    var deadline: Double? {
        switch self {
        case .tapHeld(_, let deadline), .locked(_, let deadline): deadline
        case .idle, .dragging: nil
        }
    }
}
