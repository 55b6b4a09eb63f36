import GestureEngine

/// CONTRACT STUB — the per-connection protocol state machine (PROTOCOL.md), pure: no I/O, no
/// clock. The server (and `replay`) feed it whole text messages with their arrival time on
/// the server's monotonic clock (ms); it answers with frames to send, events for the sinks
/// and observers, and whether to close. Owner: the protocol layer.
public struct ProtocolSession: Sendable {
    public let sessionID: String
    public let limits: ProtocolLimits
    public let config: GestureConfig

    public init(sessionID: String, config: GestureConfig, limits: ProtocolLimits) {
        self.sessionID = sessionID
        self.config = config
        self.limits = limits
    }

    /// `nil` until a valid `hello`.
    public private(set) var role: ConnectionRole? = nil

    /// Handles one complete text message that arrived at `arrival` (server clock, ms).
    public mutating func receive(text: Span<UInt8>, arrival: Double, into output: inout SessionOutput) {}

    /// The server-clock time (ms) at which `fire(now:into:)` must be called next, if any:
    /// the engine's next deadline mapped through the clock offset, or the end of a held step.
    public var nextWakeup: Double? { nil }

    /// Fires what is due at `now` (server clock, ms).
    public mutating func fire(now: Double, into output: inout SessionOutput) {}

    /// The connection closed at `now` (server clock): cancels the open contact.
    public mutating func close(now: Double, into output: inout SessionOutput) {}
}

/// The limits of PROTOCOL.md "Bad input", with its defaults.
public struct ProtocolLimits: Sendable, Hashable {
    public var maxMessageBytes: Int = 65_536
    public var maxMessagesPerSecond: Int = 2_000
    public var maxErrorsInARow: Int = 20
    public var maxPointers: Int = 10
    public init() {}
}

/// The role a connection declared in its `hello`.
public enum ConnectionRole: Sendable, Hashable {
    case touchpad
    case observer
}

/// WebSocket close codes the protocol uses.
public enum CloseCode: UInt16, Sendable {
    case goingAway = 1001
    case unsupportedData = 1003
    case invalidPayload = 1007
    case policyViolation = 1008
    case messageTooBig = 1009
}

/// What one call into `ProtocolSession` produced. Reused across calls (call `removeAll()`),
/// so the hot path does not allocate.
public struct SessionOutput: Sendable {
    /// Encoded JSON text frames for this connection, in order.
    public var frames = FrameBuffer()
    /// The gesture events recognized (for logs, hooks); their encoded frames are in `frames`
    /// with kind `.gesture` (the same bytes go to observers).
    public var events: [GestureEvent] = []
    /// Set when a valid `hello` arrived in this call.
    public var helloRole: ConnectionRole? = nil
    /// Set when the connection must be closed, with a reason for the close frame.
    public var close: (code: CloseCode, reason: String)? = nil

    public init() {}

    public mutating func removeAll() {
        frames.removeAll()
        events.removeAll(keepingCapacity: true)
        helloRole = nil
        close = nil
    }
}

/// A queue of encoded frames in one contiguous byte buffer.
public struct FrameBuffer: Sendable {
    /// The kind of an encoded frame.
    public enum Kind: Sendable { case reply, gesture }
    public private(set) var bytes: [UInt8] = []
    public private(set) var frames: [(kind: Kind, range: Range<Int>)] = []
    public init() {}
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        frames.removeAll(keepingCapacity: true)
    }
}
