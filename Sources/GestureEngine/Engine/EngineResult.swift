/// What the engine made of one input.
public enum EngineResult: Sendable, Hashable {
    /// Processed (possibly ignored as the spec says, e.g. a `down` of a pointer already down).
    case accepted
    /// A `down` beyond the pointer limit: ignored, and the clock did not move.
    case tooManyPointers
}
