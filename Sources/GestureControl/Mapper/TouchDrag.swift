/// A finger dragging with a touch-held button.
struct TouchDrag: Sendable {
    /// How the drag started.
    enum Origin: Sendable {
        /// A touch came down while a tap held the button (tap-and-drag).
        case tapDrag
        /// `longPressDrag` began.
        case longPress
        /// A touch came down while a drag lock held the button.
        case lockResumed
    }

    var origin: Origin
    var button: HostButton
    /// The dragging finger (nil when the mapper did not see it go down).
    var finger: Int?
    /// Where the finger went down, for `dragged`.
    var startX: Double
    var startY: Double
    /// The finger moved beyond the engine's slop from `start` (for a long-press drag, from
    /// its beginning: the engine begins it past slop).
    var dragged: Bool
}
