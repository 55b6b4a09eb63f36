/// A string token in a frame: the bytes between its quotes, and whether they hold escapes.
struct JSONString: Sendable, Hashable {
    /// Offset of the first byte after the opening quote.
    var start: Int
    /// Offset of the closing quote.
    var end: Int
    /// Whether the raw bytes contain a backslash escape (then they must be decoded to compare).
    var hasEscapes: Bool
}
