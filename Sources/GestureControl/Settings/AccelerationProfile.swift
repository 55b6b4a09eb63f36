/// How finger speed changes pointer gain (`--acceleration`).
public enum AccelerationProfile: String, Sendable, Hashable, CaseIterable {
    /// Slow moves precise, fast moves far: see `AccelerationCurve`.
    case adaptive
    /// Constant gain: one CSS px of finger travel is `speed` screen px.
    case flat
}
