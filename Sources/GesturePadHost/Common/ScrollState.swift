/// A backend's scroll between two actions: the wheel remainders of both axes
/// (`WheelAccumulator`: many small scrolls add up to exact clicks) and whether a smooth scroll
/// was sent and not ended yet (the portal's `finish`, wlroots' `axis_stop`). One rule for
/// every backend: `wheelStop` ends a smooth scroll once and keeps the remainders — a scroll that
/// stops half a click short and resumes goes on from there, as a wheel would.
struct ScrollState: Sendable, Hashable {
    private var vertical = WheelAccumulator()
    private var horizontal = WheelAccumulator()
    /// A smooth scroll was sent and not ended.
    private(set) var scrolling = false

    /// Adds `dx` / `dy` detents; the whole steps now due on each axis.
    mutating func add(dx: Double, dy: Double) -> (right: WheelAccumulator.Steps, down: WheelAccumulator.Steps) {
        (horizontal.add(dx), vertical.add(dy))
    }

    /// A smooth scroll was sent.
    mutating func sentSmooth() { scrolling = true }

    /// Whether a smooth scroll is to be ended now (then it is ended).
    mutating func stop() -> Bool {
        defer { scrolling = false }
        return scrolling
    }

    /// `amount` detents as smooth axis units (`unitsPerDetent` each), clamped as the wheel's
    /// steps are; 0 for a non-finite amount.
    static func smoothUnits(_ amount: Double, unitsPerDetent: Double) -> Double {
        let limit = WheelAccumulator.maximumDetentsPerAction
        return amount.isFinite ? min(max(amount, -limit), limit) * unitsPerDetent : 0
    }
}
