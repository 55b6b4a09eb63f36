/// The values a numeric setting takes: one bound per setting, which every place that sets it
/// checks (its flag, the configuration file, the page's `settings` message), saying it the
/// same way.
public struct NumberBound: Sendable, Hashable {
    /// The least value.
    public let lower: Double
    /// Whether `lower` itself is allowed (`> 0` does not allow 0).
    public let includesLower: Bool
    /// The greatest value allowed (itself included); nil: no limit.
    public let upper: Double?

    /// From `lower` to `upper`, both included.
    public static func from(_ lower: Double, to upper: Double) -> NumberBound {
        NumberBound(lower: lower, includesLower: true, upper: upper)
    }

    /// More than `lower`, and at most `upper` when given.
    public static func above(_ lower: Double, atMost upper: Double? = nil) -> NumberBound {
        NumberBound(lower: lower, includesLower: false, upper: upper)
    }

    /// More than 0.
    public static let positive = above(0)

    /// Whether `value` is finite and within the bound.
    public func contains(_ value: Double) -> Bool {
        guard value.isFinite, includesLower ? value >= lower : value > lower else { return false }
        return upper.map { value <= $0 } ?? true
    }

    /// `value` moved to the nearer end when outside (the lower end even when it is excluded);
    /// nil when it is not finite.
    public func clamped(_ value: Double) -> Double? {
        guard value.isFinite else { return nil }
        return min(max(value, lower), upper ?? .infinity)
    }

    /// As messages and the docs say it: "from 0.1 to 10", "> 0", "> 0 and ≤ 86400".
    public var text: String {
        let low = Self.number(lower)
        guard let upper else { return "\(includesLower ? "≥" : ">") \(low)" }
        return includesLower ? "from \(low) to \(Self.number(upper))" : "> \(low) and ≤ \(Self.number(upper))"
    }

    /// `1000`, `0.1`: integral values without a fraction.
    public static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }
}
