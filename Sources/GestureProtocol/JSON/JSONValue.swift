/// The value of one field of a message object, as far as the decoder needs it: numbers and
/// strings by value / position, containers only by kind (they are skipped).
enum JSONValue: Sendable, Hashable {
    /// A number, with the byte range of its text (echoed verbatim by `pong`).
    case number(Double, Range<Int>)
    case string(JSONString)
    case bool(Bool)
    case null
    case object
    /// An array, by the offset of its `[` (a `key` message's `modifiers` is read again from there).
    case array(Int)
}
