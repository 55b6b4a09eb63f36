/// A refused message: the `error` frame's `code` and human `message`.
public struct ProtocolError: Error, Sendable, Hashable {
    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The error codes of PROTOCOL.md "Bad input", plus two additive ones.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The frame is not JSON (or not a message object / array of them).
        case badJSON = "bad_json"
        /// `type` names no message of the protocol.
        case unknownType = "unknown_type"
        /// A field is missing, has the wrong type, is not finite or is out of range.
        case badField = "bad_field"
        /// A message before `hello`.
        case helloRequired = "hello_required"
        /// A `down` beyond the pointer limit; the pointer is ignored.
        case tooManyPointers = "too_many_pointers"
        /// Additive: a second `hello` on the same connection; it is ignored.
        case duplicateHello = "duplicate_hello"
        /// Additive: an observer sent something other than `ping`; it is ignored.
        case observerReadOnly = "observer_read_only"
        /// CONTROL.md: a `text`, `key` or `button` while the server does not control the computer.
        case controlOff = "control_off"
        /// Additive (docs/protocol.md "Sealed messages"): a plain `text`, `key` or `button` on a
        /// connection that proved its credential, where they must come sealed; it is ignored.
        case sealRequired = "seal_required"
        /// Additive (docs/protocol.md "Media"): a `media` command while no player is followed.
        case mediaUnavailable = "media_unavailable"

        /// The wire name, e.g. `"bad_field"`.
        public var name: String { rawValue }
    }
}
