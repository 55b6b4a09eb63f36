/// A mouse or pen pointer hovering (no button held) — GESTURES.md "hover".
struct HoverPointer: Sendable {
    let id: Int
    let pointerType: PointerType
    var x: Double
    var y: Double
    /// `t` of the last hover event sent.
    var lastSentT: Double
    /// Whether `began` was sent.
    var began: Bool
    /// Moved in the held step (judged at its end).
    var movedInStep: Bool
}
