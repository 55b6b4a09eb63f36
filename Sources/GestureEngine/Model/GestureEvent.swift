/// One recognized gesture event: the common fields of GESTURES.md "Every event" plus the
/// gesture's own fields. A plain value (no heap storage), cheap to copy on the hot path.
public struct GestureEvent: Sendable, Hashable {
    public var gesture: GestureKind
    public var phase: GesturePhase
    /// Page-clock time in ms: the causing message's `t`, or the deadline of the timer.
    public var t: Double
    public var x: Double
    public var y: Double
    public var pointers: Int
    public var detail: GestureDetail

    public init(
        gesture: GestureKind, phase: GesturePhase, t: Double, x: Double, y: Double,
        pointers: Int, detail: GestureDetail
    ) {
        self.gesture = gesture
        self.phase = phase
        self.t = t
        self.x = x
        self.y = y
        self.pointers = pointers
        self.detail = detail
    }
}
