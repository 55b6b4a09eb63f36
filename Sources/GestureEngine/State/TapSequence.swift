/// The current tap sequence (GESTURES.md "tap · doubleTap · singleTapConfirmed").
struct TapSequence: Sendable {
    var count: Int
    var fingers: Int
    var firstX: Double
    var firstY: Double
    var lastUpT: Double
}

/// The `singleTapConfirmed` decision for a sequence that has exactly one tap.
///
/// States and transitions:
/// - `idle` → `pending` when a tap starts a sequence (deadline = up + multiTapInterval)
/// - `pending` → fires at the deadline (→ `idle`, sequence closed)
/// - `pending` → `waiting` when a contact starts before the deadline
/// - `waiting` → at that contact's end: a bounce → back to `pending`; a tap that counted
///   on → `idle`, nothing fires; anything else → fires right after the contact's `end`
enum TapConfirmation: Sendable {
    /// The confirmed tap's location and fingers.
    struct Tap: Sendable {
        var x: Double
        var y: Double
        var pointers: Int
        var deadline: Double
    }

    case idle
    case pending(Tap)
    case waiting(Tap)
}
