/// A string token in a frame: the bytes between its quotes, and whether they hold escapes.
struct JSONString: Sendable, Hashable {
    /// Offset of the first byte after the opening quote.
    var start: Int
    /// Offset of the closing quote.
    var end: Int
    /// Whether the raw bytes contain a backslash escape (then they must be decoded to compare).
    var hasEscapes: Bool
}

/// The value of one field of a message object, as far as the decoder needs it: numbers and
/// strings by value / position, containers only by kind (they are skipped).
enum JSONValue: Sendable, Hashable {
    /// A number, with the byte range of its text (echoed verbatim by `pong`).
    case number(Double, Range<Int>)
    case string(JSONString)
    case bool(Bool)
    case null
    case object
    case array
}
