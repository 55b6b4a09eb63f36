/// The continuous gesture a phase runs (GESTURES.md "drag", "longPressDrag", "Two fingers").
///
/// States and transitions:
/// - `idle` → `drag` (1 or ≥ 3 fingers, centroid moved > dragMinDistance, no long press)
/// - `idle` → `longPressDrag` (after `longPress` began, moved > slop from its location)
/// - `idle` → `scroll` (2 fingers, centroid travel > scrollMinDistance first)
/// - `idle` → `transform` (2 fingers, span or angle threshold first; wins on the same move)
/// - `transform(pinch, rotate)` → the other flag turns on when its threshold is crossed
/// Every state returns to `idle` when the phase ends (ended) or the contact is cancelled.
enum PhaseMotion: Sendable {
    case idle
    /// `lastDx`, `lastDy`: translation at this drag's previous event (for `ddx`, `ddy`).
    case drag(lastDx: Double, lastDy: Double)
    case longPressDrag(startX: Double, startY: Double, lastDx: Double, lastDy: Double)
    case scroll(lastDx: Double, lastDy: Double)
    /// Which of pinch and rotate have begun (at least one).
    case transform(pinch: Bool, rotate: Bool)
}
