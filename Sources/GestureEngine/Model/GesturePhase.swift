/// The phase of a gesture event. Discrete gestures only ever have `.ended`.
public enum GesturePhase: String, Sendable, Hashable, CaseIterable {
    case began
    case changed
    case ended
    case cancelled

    /// The protocol's name of the phase.
    public var name: String { rawValue }

    /// Parses a protocol name; `nil` for anything else.
    public init?(name: String) {
        self.init(rawValue: name)
    }
}
