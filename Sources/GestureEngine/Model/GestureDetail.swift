/// The gesture's own fields, one case per shape of field set (GESTURES.md).
public enum GestureDetail: Sendable, Hashable {
    /// `press`, `hover`: the pointer.
    case pointer(id: Int, pointerType: PointerType)
    /// `release`.
    case release(id: Int, inside: Bool, duration: Double)
    /// `end`.
    case end(reason: EndReason, duration: Double)
    /// `tap`, `repeat`.
    case count(Int)
    /// `doubleTap`, `singleTapConfirmed`: no own fields.
    case none
    /// `longPress`, `timedPress`: ms held so far.
    case duration(Double)
    /// `drag`, `longPressDrag`.
    case motion(MotionFields)
    /// `scroll`.
    case scroll(ScrollFields)
    /// `swipe`.
    case swipe(SwipeFields)
    /// `pinch`.
    case pinch(scale: Double, velocity: Double)
    /// `rotate`: degrees, clockwise positive, unwrapped.
    case rotate(angle: Double, velocity: Double)
}
