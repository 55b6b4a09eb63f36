/// A validated `hello`.
public struct HelloMessage: Sendable, Hashable {
    public var role: ConnectionRole
    /// Surface size in CSS px (an observer may leave it out: then 0).
    public var width: Double
    public var height: Double
    /// Device pixel ratio, when sent.
    public var dpr: Double?

    public init(role: ConnectionRole, width: Double, height: Double, dpr: Double? = nil) {
        self.role = role
        self.width = width
        self.height = height
        self.dpr = dpr
    }
}
