/// One touch of a touchpad connection passed through to a native touchpad backend
/// (`--control touchpad`, CONTROL.md "The `touchpad` backend"): the desktop's input stack, not
/// the control mapping, decides what the touches do. Plain values, no I/O.
public struct TouchContact: Sendable, Hashable {
    /// Where the touch is in its life.
    public enum Phase: String, Sendable, Hashable {
        /// The finger lands.
        case down
        /// The finger moves.
        case move
        /// The finger lifts where it is.
        case up
        /// The touch ends without a lift of its own (the page's `cancel`, the connection
        /// closed or fell silent, control turned off): the backend lifts it at once.
        case cancel
    }

    /// The connection the touch belongs to: a touchpad device serves one connection's
    /// fingers at a time.
    public var owner: Int
    /// The page's pointer id.
    public var id: Int
    public var phase: Phase
    /// Position on the connection's surface, CSS px (x right, y down).
    public var x: Double
    public var y: Double
    /// The page's clock (ms): frames are written spaced like these.
    public var t: Double

    public init(owner: Int, id: Int, phase: Phase, x: Double, y: Double, t: Double) {
        self.owner = owner
        self.id = id
        self.phase = phase
        self.x = x
        self.y = y
        self.t = t
    }
}
