extension [GestureEvent] {
    /// Appends one event (the engine's only way of emitting).
    @inline(__always)
    mutating func emit(
        _ gesture: GestureKind, _ phase: GesturePhase, t: Double, x: Double, y: Double,
        pointers: Int, _ detail: GestureDetail
    ) {
        append(GestureEvent(gesture: gesture, phase: phase, t: t, x: x, y: y, pointers: pointers, detail: detail))
    }
}
