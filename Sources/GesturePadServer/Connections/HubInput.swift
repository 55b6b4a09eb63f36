/// What happens to one connection, as the transport reports it to `ConnectionHub.handle(_:on:)`.
/// Time is an input: every case that can lead to a timer carries `now` on the server's
/// monotonic clock (ms); the hub answers with deadlines on the same clock.
enum HubInput {
    /// A chunk of a data frame arrived: `bytes` (a transport buffer the hub copies from, only
    /// when the chunk is accepted), whether it ends its message, whether the frame is binary.
    case received(ArraySlice<UInt8>, isFinal: Bool, isBinary: Bool, now: Double)
    /// The connection can be written to (the writable callback the hub asked for).
    case writable(now: Double)
    /// The connection's timer fired at `now`. `inputPending`: bytes from the peer already wait
    /// in its socket (a loop that was held up runs its due timers before reading them).
    case wakeup(now: Double, inputPending: Bool)
    /// lws has a Close frame prepared or sent for this connection — ours, or its own for a
    /// protocol error it found in the input (1002 for reserved bits, …).
    case closeFrameSeen
    /// The peer sent a Close, which lws answers.
    case peerClosed
    /// lws let go of the connection at `now`.
    case closed(now: Double)
}
