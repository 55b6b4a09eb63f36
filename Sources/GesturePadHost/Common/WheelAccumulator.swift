/// Turns the wheel amounts of `HostAction.wheel` (detents, fractional) into whole steps for one
/// axis, carrying what is left over to the next call, so that many small scrolls add up exactly.
///
/// Two units come out: 1/120 detent (the kernel's high-resolution wheel unit, and Windows'
/// `WHEEL_DELTA`) and whole detents (one X11 button 4–7 click, one `REL_WHEEL`). Detents are
/// counted from the emitted 1/120 units, so both streams always agree. Signs are the input's:
/// positive is down (or right).
struct WheelAccumulator: Sendable, Hashable {
    /// What one call produced.
    struct Steps: Sendable, Hashable {
        /// Whole 1/120 detents.
        var highResolution: Int
        /// Whole detents.
        var detents: Int
    }

    /// High-resolution units per detent.
    static let unitsPerDetent = 120
    /// The most detents one action may scroll; larger (or non-finite) amounts are clamped, so a
    /// bogus value cannot queue millions of clicks.
    static let maximumDetentsPerAction = 100.0

    /// Less than one unit, carried (rounding to nearest keeps it within ±0.5).
    private var fraction = 0.0
    /// Whole units emitted but not yet a whole detent (|units| < 120).
    private var units = 0

    /// Adds `amount` detents; returns the whole steps now due.
    mutating func add(_ amount: Double) -> Steps {
        let limit = Self.maximumDetentsPerAction
        let clamped = amount.isFinite ? min(max(amount, -limit), limit) : 0
        let scaled = clamped * Double(Self.unitsPerDetent) + fraction
        let whole = scaled.rounded()
        fraction = scaled - whole
        let highResolution = Int(whole)
        units += highResolution
        let detents = units / Self.unitsPerDetent
        units -= detents * Self.unitsPerDetent
        return Steps(highResolution: highResolution, detents: detents)
    }
}
