/// One load-generator connection: where it is in its life, and what it has in flight (no lws
/// handle: the bridge keeps those).
struct LoadConnection {
    var stage = LoadConnectionStage.connecting
    /// The next frame of the script, and which loop of it.
    var frame = 0
    var loop: Int64 = 0
    /// Frames sent and not yet acknowledged (pong / echo).
    var inflight = 0
    /// Acknowledgeable sends (a frame with a ping, or any frame to an echo server), oldest
    /// first, in a ring: send time, and the messages and frames its acknowledgement covers.
    private var acks = 0
    private var ackTimes = [Double](repeating: 0, count: LoadConnection.ackCapacity)
    private var ackMessages = [Int](repeating: 0, count: LoadConnection.ackCapacity)
    private var ackFrames = [Int](repeating: 0, count: LoadConnection.ackCapacity)
    private var ackHead = 0
    /// Frames (and their messages) sent since the last acknowledgeable one.
    private var groupFrames = 0
    private var groupMessages = 0
    /// Frames sent so far (for "a ping every K frames").
    var framesSent = 0
    /// Rate mode: when the next frame is due (monotonic seconds).
    var due = 0.0
    /// A WRITEABLE callback or a timer is requested and has not come yet.
    var wakePending = false
    /// The `t` (µs) and send time of the latest pointer messages, in a ring.
    private var sentT = [Int64](repeating: -1, count: LoadConnection.sentCapacity)
    private var sentAt = [Double](repeating: 0, count: LoadConnection.sentCapacity)
    private var sentNext = 0
    /// The start of a fragmented incoming message.
    var partial: [UInt8] = []

    static let ackCapacity = 1024
    static let sentCapacity = 256

    var canTrackMore: Bool { acks < Self.ackCapacity }

    /// Notes a frame of `messages` pointer messages sent at `time`; `ackable` when its
    /// acknowledgement (pong or echo) will come back.
    mutating func sentFrame(messages: Int, ackable: Bool, at time: Double) {
        inflight += 1
        framesSent += 1
        groupFrames += 1
        groupMessages += messages
        guard ackable else { return }
        let slot = (ackHead + acks) % Self.ackCapacity
        ackTimes[slot] = time
        ackMessages[slot] = groupMessages
        ackFrames[slot] = groupFrames
        acks += 1
        groupFrames = 0
        groupMessages = 0
    }

    /// The oldest acknowledgeable send was acknowledged: its send time and the messages it
    /// covers (its frame and those since the previous acknowledgeable one).
    mutating func acknowledged() -> (time: Double, messages: Int, frames: Int)? {
        guard acks > 0 else { return nil }
        let result = (ackTimes[ackHead], ackMessages[ackHead], ackFrames[ackHead])
        inflight -= ackFrames[ackHead]
        ackHead = (ackHead + 1) % Self.ackCapacity
        acks -= 1
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
