/// One page → server message, as the engine sees it: validated, typed, with its `t`.
/// (`hello` is the protocol layer's business; it reaches the engine as its surface size.)
public enum PointerInput: Sendable, Hashable {
    case down(PointerSample)
    case move(PointerSample)
    case up(PointerSample)
    /// `pointercancel`; `id == nil` is `"all"` (page hidden, focus lost).
    case cancel(id: Int?, t: Double)
    /// A hovering pointer left the surface.
    case leave(id: Int, t: Double)
    /// The surface changed size.
    case resize(width: Double, height: Double)
    /// A message that only carries time (`ping`): moves the clock, fires due timers.
    case clock(t: Double)

    /// The message's `t`, if it has one.
    public var time: Double? {
        switch self {
        case .down(let s), .move(let s), .up(let s): s.t
        case .cancel(_, let t), .leave(_, let t), .clock(let t): t
        case .resize: nil
        }
    }
}
