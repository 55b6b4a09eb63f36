/// The per-connection gesture engine (STUB: API only, being implemented).
public struct GestureEngine: Sendable {
    public let config: GestureConfig
    public let maxPointers: Int
    public private(set) var width: Double
    public private(set) var height: Double

    public init(config: GestureConfig = GestureConfig(), width: Double, height: Double, maxPointers: Int = 10) {
        self.config = config
        self.width = width
        self.height = height
        self.maxPointers = maxPointers
    }

    /// The earliest page-clock deadline of a pending timer, if any.
    public var nextDeadline: Double? { nil }
    /// Whether a move step is held, waiting for more moves with the same `t`.
    public var hasPendingStep: Bool { false }
    /// The latest `t` seen (the engine's clock), if any.
    public private(set) var now: Double? = nil
    /// Pointers currently down (including ones ignored after a cancel).
    public var pointersDown: Int { 0 }

    /// Processes one message: fires the timers due at or before its `t`, then the message.
    public mutating func process(_ input: PointerInput, into events: inout [GestureEvent]) -> EngineResult {
        .accepted
    }

    /// Judges a held move step now.
    public mutating func flush(into events: inout [GestureEvent]) {}

    /// Advances the clock to `t`, firing every timer due at or before it.
    public mutating func advance(to t: Double, into events: inout [GestureEvent]) {}

    /// The connection closed at `t`: cancels the open contact and every hover.
    public mutating func close(at t: Double, into events: inout [GestureEvent]) {}
}
