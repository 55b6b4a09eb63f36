/// Why a contact ended: its last finger lifted, or it was cancelled.
public enum EndReason: String, Sendable, Hashable, CaseIterable {
    case release
    case cancel

    /// The protocol's name of the reason.
    public var name: String { rawValue }
}
