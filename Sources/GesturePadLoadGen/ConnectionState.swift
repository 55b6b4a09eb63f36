/// One load-generator connection's bookkeeping (no lws handle: the bridge keeps those).
struct ConnectionState {
    /// Ready to send pointers: welcomed (gesture server) or established (echo server).
    var ready = false
    var closed = false
    var failed = false
    /// The next frame of the script, and which loop of it.
    var frame = 0
    var loop: Int64 = 0
    /// Frames sent and not yet acknowledged (pong / echo), oldest first, in a ring.
    var inflight = 0
    private var ackTimes = [Double](repeating: 0, count: ConnectionState.ackCapacity)
    private var ackCounts = [Int](repeating: 0, count: ConnectionState.ackCapacity)
    private var ackHead = 0
    /// Rate mode: when the next frame is due (monotonic seconds).
    var due = 0.0
    /// A timer or writable request is outstanding.
    var scheduled = false
    /// The `t` (µs) and send time of the latest pointer messages, in a ring.
    private var sentT = [Int64](repeating: -1, count: ConnectionState.sentCapacity)
    private var sentAt = [Double](repeating: 0, count: ConnectionState.sentCapacity)
    private var sentNext = 0
    /// The start of a fragmented incoming message.
    var partial: [UInt8] = []

    static let ackCapacity = 1024
    static let sentCapacity = 256

    var canTrackMore: Bool { inflight < Self.ackCapacity }

    /// Notes a frame of `messages` pointer messages sent at `time`.
    mutating func sentFrame(messages: Int, at time: Double) {
        let slot = (ackHead + inflight) % Self.ackCapacity
        ackTimes[slot] = time
        ackCounts[slot] = messages
        inflight += 1
    }

    /// The oldest frame in flight was acknowledged: its send time and message count.
    mutating func acknowledged() -> (time: Double, messages: Int)? {
        guard inflight > 0 else { return nil }
        let result = (ackTimes[ackHead], ackCounts[ackHead])
        ackHead = (ackHead + 1) % Self.ackCapacity
        inflight -= 1
        return result
    }

    mutating func sentMessage(t: Int64, at time: Double) {
        let slot = sentNext % Self.sentCapacity
        sentT[slot] = t
        sentAt[slot] = time
        sentNext += 1
    }

    /// The send time of the recent message whose `t` is `t`, newest first.
    func sendTime(ofT t: Int64) -> Double? {
        var n = sentNext - 1
        let stop = max(sentNext - Self.sentCapacity, 0)
        while n >= stop {
            let slot = n % Self.sentCapacity
            if sentT[slot] == t { return sentAt[slot] }
            n -= 1
        }
        return nil
    }
}
