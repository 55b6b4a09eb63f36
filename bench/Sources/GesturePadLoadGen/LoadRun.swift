#if canImport(Glibc)
    import Glibc
#endif

/// The load generator's logic, driven by the lws bridge on one thread: it moves each
/// connection through its `LoadConnectionStage`, decides what it sends and when, and measures
/// what comes back. It never touches lws itself: it queues the connections to wake (`wake`)
/// and timers to set (`timers`), which the bridge drains after every call, and `tick` tells
/// the bridge when the run next needs the loop awake.
final class LoadRun {
    /// Where the run is.
    enum Phase {
        /// Opening connections (and waiting for `welcome`) until the deadline.
        case connecting(deadline: Double)
        /// Sending, not yet counting.
        case warmup(until: Double)
        /// Sending and counting.
        case measuring(since: Double, until: Double)
        /// Idle mode: connections open, nothing sent, until the RSS is read.
        case holding(until: Double)
        case done
    }

    /// What `tick` asks of the bridge.
    enum Step: Equatable {
        /// Keep serving; wake the loop by `deadline` (monotonic seconds) at the latest, when
        /// the phase ends on its own.
        case wait(deadline: Double)
        case finished
    }

    let options: LoadOptions
    let script: TraceScript
    /// Bytes reserved before each outgoing payload (`LWS_PRE`).
    let headroom: Int
    private(set) var phase: Phase
    private(set) var connections: [LoadConnection]

    /// Connections that want a WRITEABLE callback, and timers (µs) to set: drained by the bridge.
    var wake: [Int] = []
    var timers: [(connection: Int, micros: Int)] = []
    /// The outgoing frame, after `headroom` bytes (filled by `writable`).
    var sendBuffer: [UInt8]
    /// The bridge copies each incoming chunk here before calling `received`.
    var scratch: [UInt8] = []

    /// What the run measures (LoadReport prints it).
    private(set) var measurements: LoadMeasurements
    private var times: [Int64] = []

    init(options: LoadOptions, script: TraceScript, headroom: Int, now: Double) {
        self.options = options
        self.script = script
        self.headroom = headroom
        phase = .connecting(deadline: now + options.connectTimeout)
        connections = Array(repeating: LoadConnection(), count: options.connections)
        sendBuffer = [UInt8](repeating: 0, count: headroom)
        sendBuffer.reserveCapacity(headroom + 8192)
        times.reserveCapacity(64)
        measurements = LoadMeasurements(serverPID: options.pid)
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Connections running: live until the run ends, then frozen (the context's destruction
    /// closes them all).
    var readyCount: Int { readyAtEnd ?? connections.count { $0.stage == .running } }
    private var readyAtEnd: Int? = nil
    /// Connections that never completed their handshake.
    var failedCount: Int { connections.count { $0.stage == .failed } }

    // MARK: - Events from the bridge

    /// The WebSocket handshake completed: an echo connection runs, a gesture one says hello.
    func established(_ i: Int, now: Double) {
        apply(.established(echo: options.server == .echo), to: i, now: now)
        if connections[i].stage == .greeting { requestWrite(i) }
    }

    /// lws gave up on the connection (or could not even start it).
    func failed(_ i: Int, now: Double) { apply(.connectionError, to: i, now: now) }

    /// The server sent a close frame with `code` (nil: none).
    func peerClosing(_ i: Int, code: Int?, now: Double) {
        if let code { measurements.closeCodes[code, default: 0] += 1 }
        apply(.peerClosing, to: i, now: now)
    }

    func closed(_ i: Int, now: Double) { apply(.closed, to: i, now: now) }

    /// Moves connection `i` on by `event`; one that starts running while the run sends starts
    /// sending.
    private func apply(_ event: LoadConnectionStage.Event, to i: Int, now: Double) {
        let before = connections[i].stage
        connections[i].stage = before.after(event)
        if before != .running, connections[i].stage == .running, isSending { startSending(i, now: now) }
    }

    /// Asks for a WRITEABLE callback for `i`, unless one (or a timer) is already pending.
    private func requestWrite(_ i: Int) {
        guard !connections[i].wakePending else { return }
        connections[i].wakePending = true
        wake.append(i)
    }

    /// A chunk of an incoming message is in `scratch`.
    func received(_ i: Int, first: Bool, final: Bool, now: Double) {
        if first && final {
            message(i, scratch, now: now)
            return
        }
        if first { connections[i].partial.removeAll(keepingCapacity: true) }
        connections[i].partial.append(contentsOf: scratch)
        if final {
            let whole = connections[i].partial
            message(i, whole, now: now)
        }
    }

    private func message(_ i: Int, _ bytes: [UInt8], now: Double) {
        let counting = isMeasuring(now)
        if options.server == .echo {
            acknowledge(i, now: now, counting: counting)
            return
        }
        // {"type":"…  — the 10th byte tells the message type apart.
        guard bytes.count > 9 else { return }
        switch bytes[9] {
        case UInt8(ascii: "p"):  // pong
            acknowledge(i, now: now, counting: counting)
        case UInt8(ascii: "g"):  // gesture
            guard counting else { return }
            measurements.gestureMessages += 1
            if let t = ReplyScan.gestureT(bytes), let sent = connections[i].sendTime(ofT: t) {
                measurements.gestureLatency.record(seconds: now - sent)
                // `ended`: the event that completes a gesture (discrete gestures only have it).
                if ReplyScan.isEnded(bytes) {
                    measurements.completedLatency.record(seconds: now - sent)
                }
            }
        case UInt8(ascii: "w"):  // welcome
            apply(.welcomed, to: i, now: now)
        case UInt8(ascii: "e"):
            if counting { measurements.errorMessages += 1 }
        default:
            break
        }
    }

    private func acknowledge(_ i: Int, now: Double, counting: Bool) {
        let wasFull = connections[i].inflight >= options.window
        guard let (sent, messages, frames) = connections[i].acknowledged() else { return }
        if counting {
            measurements.framesAcked += frames
            measurements.messagesAcked += messages
            measurements.roundTrip.record(seconds: now - sent)
        }
        if options.rate == 0, wasFull, isSending, connections[i].stage == .running { requestWrite(i) }
    }

    /// A timer set through `timers` fired.
    func timer(_ i: Int) {
        wake.append(i)
    }

    /// WRITEABLE: fills `sendBuffer` (after the headroom) with what `i` sends next — its
    /// `hello`, or the next frame — or returns false.
    func writable(_ i: Int, now: Double) -> Bool {
        sendBuffer.removeSubrange(headroom...)
        connections[i].wakePending = false
        switch connections[i].stage {
        case .greeting:
            sendBuffer.append(contentsOf: script.hello)
            connections[i].stage = connections[i].stage.after(.helloWritten)
            return true
        case .running:
            return nextFrame(i, now: now)
        case .connecting, .awaitingWelcome, .closing, .closed, .failed:
            return false
        }
    }

    /// Fills `sendBuffer` with the next frame of running connection `i`, when it is due and
    /// the window has room.
    private func nextFrame(_ i: Int, now: Double) -> Bool {
        guard isSending, connections[i].canTrackMore else { return false }
        if options.rate > 0 {
            if connections[i].due > now {
                schedule(i, now: now)
                return false
            }
        } else if connections[i].inflight >= options.window {
            return false
        }
        let frame = connections[i].frame
        times.removeAll(keepingCapacity: true)
        // A ping every `pingEvery` frames (and whenever the window would fill without one);
        // an echo server acknowledges every frame anyway.
        let ping =
            (connections[i].framesSent + 1) % options.pingEvery == 0
            || options.rate == 0 && connections[i].inflight + 1 >= options.window
        script.appendFrame(frame, loop: connections[i].loop, ping: ping, to: &sendBuffer, times: &times)
        for t in times { connections[i].sentMessage(t: t, at: now) }
        connections[i].sentFrame(messages: times.count, ackable: ping || options.server == .echo, at: now)
        connections[i].frame += 1
        if connections[i].frame == script.frames.count {
            connections[i].frame = 0
            connections[i].loop += 1
        }
        if options.rate > 0 {
            connections[i].due += Double(times.count) / options.rate
            schedule(i, now: now)
        } else if connections[i].inflight < options.window {
            requestWrite(i)
        }
        return true
    }

    private func schedule(_ i: Int, now: Double) {
        guard !connections[i].wakePending else { return }
        connections[i].wakePending = true
        let delay = connections[i].due - now
        if delay <= 0 {
            wake.append(i)
        } else {
            timers.append((i, max(Int(delay * 1e6), 1)))
        }
    }

    // MARK: - Phases

    private var isSending: Bool {
        switch phase {
        case .warmup, .measuring: true
        default: false
        }
    }

    private func isMeasuring(_ now: Double) -> Bool {
        if case .measuring(_, let until) = phase { return now < until }
        return false
    }

    private func startSending(_ i: Int, now: Double) {
        guard connections[i].stage == .running else { return }
        if options.rate > 0 {
            // Spread the connections' first frames over one average frame interval.
            let interval = Double(script.messagesPerLoop) / Double(script.frames.count) / options.rate
            connections[i].due = now + interval * Double(i) / Double(connections.count)
            schedule(i, now: now)
        } else {
            requestWrite(i)
        }
    }

    /// Moves the run along (after every service pass, and when the deadline it last returned
    /// comes): the phase ends when its deadline passes, or connecting when every connection
    /// has settled.
    func tick(now: Double) -> Step {
        switch phase {
        case .connecting(let deadline):
            let settled = connections.allSatisfy { $0.stage.isSettled }
            guard settled || now >= deadline else { return .wait(deadline: deadline) }
            if options.idle {
                phase = .holding(until: now + options.hold)
            } else {
                phase = .warmup(until: now + options.warmup)
                for i in connections.indices { startSending(i, now: now) }
            }
        case .warmup(let until):
            if now >= until {
                phase = .measuring(since: now, until: now + options.seconds)
                measurements.start()
            }
        case .measuring(let since, let until):
            if now >= until {
                measurements.finish(seconds: now - since)
                readyAtEnd = readyCount
                phase = .done
            }
        case .holding(let until):
            if now >= until {
                measurements.finishHolding()
                readyAtEnd = readyCount
                phase = .done
            }
        case .done:
            break
        }
        switch phase {
        case .connecting(let deadline): return .wait(deadline: deadline)
        case .warmup(let until), .holding(let until), .measuring(_, let until): return .wait(deadline: until)
        case .done: return .finished
        }
    }
}
