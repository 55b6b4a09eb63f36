#if canImport(Glibc)
    import Glibc
#endif

/// The load generator's logic, driven by the lws bridge on one thread: it decides what each
/// connection sends and when, and measures what comes back. It never touches lws itself: it
/// queues the connections to wake (`wake`) and timers to set (`timers`), which the bridge
/// drains after every call.
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

    let options: LoadOptions
    let script: TraceScript
    /// Bytes reserved before each outgoing payload (`LWS_PRE`).
    let headroom: Int
    private(set) var phase: Phase
    private(set) var connections: [ConnectionState]

    /// Connections that want a WRITEABLE callback, and timers (µs) to set: drained by the bridge.
    var wake: [Int] = []
    var timers: [(connection: Int, micros: Int)] = []
    /// The outgoing frame, after `headroom` bytes (filled by `writable`).
    var sendBuffer: [UInt8]
    /// The bridge copies each incoming chunk here before calling `received`.
    var scratch: [UInt8] = []

    // Measurements (counted while measuring).
    private(set) var framesAcked = 0
    private(set) var messagesAcked = 0
    private(set) var gestureMessages = 0
    private(set) var errorMessages = 0
    private(set) var roundTrip = LatencyHistogram()
    private(set) var gestureLatency = LatencyHistogram()
    /// Only the events with phase `ended` (a gesture completed).
    private(set) var completedLatency = LatencyHistogram()
    private(set) var measuredSeconds = 0.0
    var closeCodes: [Int: Int] = [:]
    private(set) var rssBeforeKiB: Int? = nil
    private(set) var rssAfterKiB: Int? = nil
    /// CPU seconds used while measuring (server: `--pid`; client: this process).
    private(set) var serverCPU: Double? = nil
    private(set) var clientCPU: Double? = nil
    private var cpuAtStart: (server: Double?, client: Double?, machine: Double?) = (nil, nil, nil)
    /// CPU seconds the rest of the machine (neither the server nor this process) used while measuring.
    private(set) var othersCPU: Double? = nil
    private var times: [Int64] = []
    private var sendingStart = 0.0

    init(options: LoadOptions, script: TraceScript, headroom: Int, now: Double) {
        self.options = options
        self.script = script
        self.headroom = headroom
        phase = .connecting(deadline: now + options.connectTimeout)
        connections = Array(repeating: ConnectionState(), count: options.connections)
        sendBuffer = [UInt8](repeating: 0, count: headroom)
        sendBuffer.reserveCapacity(headroom + 8192)
        times.reserveCapacity(64)
        rssBeforeKiB = options.pid.flatMap(ProcStatus.rssKiB)
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Connections ready and open: live until the run ends, then frozen (the context's
    /// destruction closes them all).
    var readyCount: Int { readyAtEnd ?? connections.count { $0.ready && !$0.closed } }
    private var readyAtEnd: Int? = nil

    // MARK: - Events from the bridge

    /// The WebSocket handshake completed. Returns whether to ask for WRITEABLE (to send hello).
    func established(_ i: Int) {
        if options.server == .echo {
            connections[i].ready = true
        } else {
            wake.append(i)  // hello
        }
    }

    func failed(_ i: Int) { connections[i].failed = true }

    func closed(_ i: Int) { connections[i].closed = true }

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
            gestureMessages += 1
            if let t = Self.gestureT(bytes), let sent = connections[i].sendTime(ofT: t) {
                gestureLatency.record(seconds: now - sent)
                // `ended`: the event that completes a gesture (discrete gestures only have it).
                if let phase = Self.find(Self.phaseKey, in: bytes), phase < bytes.count, bytes[phase] == UInt8(ascii: "e") {
                    completedLatency.record(seconds: now - sent)
                }
            }
        case UInt8(ascii: "w"):  // welcome
            connections[i].ready = true
            if case .measuring = phase { startSending(i, now: now) }
            if case .warmup = phase { startSending(i, now: now) }
        case UInt8(ascii: "e"):
            if counting { errorMessages += 1 }
        default:
            break
        }
    }

    private func acknowledge(_ i: Int, now: Double, counting: Bool) {
        let wasFull = connections[i].inflight >= options.window
        guard let (sent, messages, frames) = connections[i].acknowledged() else { return }
        if counting {
            framesAcked += frames
            messagesAcked += messages
            roundTrip.record(seconds: now - sent)
        }
        if options.rate == 0, wasFull, isSending, !connections[i].scheduled {
            connections[i].scheduled = true
            wake.append(i)
        }
    }

    /// A timer set through `timers` fired.
    func timer(_ i: Int) {
        wake.append(i)
    }

    /// WRITEABLE: fills `sendBuffer` (after the headroom) with the next frame, or returns false.
    func writable(_ i: Int, now: Double) -> Bool {
        sendBuffer.removeSubrange(headroom...)
        connections[i].scheduled = false
        if !connections[i].ready {
            guard options.server == .gesture else { return false }
            sendBuffer.append(contentsOf: script.hello)
            return true
        }
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
            connections[i].scheduled = true
            wake.append(i)
        }
        return true
    }

    private func schedule(_ i: Int, now: Double) {
        guard !connections[i].scheduled else { return }
        connections[i].scheduled = true
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
        guard connections[i].ready, !connections[i].closed else { return }
        if options.rate > 0 {
            // Spread the connections' first frames over one average frame interval.
            let interval = Double(script.messagesPerLoop) / Double(script.frames.count) / options.rate
            connections[i].due = now + interval * Double(i) / Double(connections.count)
            schedule(i, now: now)
        } else if !connections[i].scheduled {
            connections[i].scheduled = true
            wake.append(i)
        }
    }

    /// Moves the run along; returns true when it is over.
    func tick(now: Double) -> Bool {
        switch phase {
        case .connecting(let deadline):
            let settled = connections.allSatisfy { $0.ready || $0.failed || $0.closed }
            guard settled || now >= deadline else { return false }
            if options.idle {
                phase = .holding(until: now + options.hold)
            } else {
                phase = .warmup(until: now + options.warmup)
                sendingStart = now
                for i in connections.indices { startSending(i, now: now) }
            }
        case .warmup(let until):
            if now >= until {
                phase = .measuring(since: now, until: now + options.seconds)
                cpuAtStart = (
                    options.pid.flatMap(ProcStatus.cpuSeconds), ProcStatus.cpuSeconds(Int(getpid())),
                    ProcStatus.machineBusySeconds()
                )
            }
        case .measuring(let since, let until):
            if now >= until {
                measuredSeconds = now - since
                rssAfterKiB = options.pid.flatMap(ProcStatus.rssKiB)
                if let start = cpuAtStart.server, let end = options.pid.flatMap(ProcStatus.cpuSeconds) {
                    serverCPU = end - start
                }
                if let start = cpuAtStart.client, let end = ProcStatus.cpuSeconds(Int(getpid())) {
                    clientCPU = end - start
                }
                if let start = cpuAtStart.machine, let end = ProcStatus.machineBusySeconds() {
                    othersCPU = max(end - start - (serverCPU ?? 0) - (clientCPU ?? 0), 0)
                }
                readyAtEnd = readyCount
                phase = .done
            }
        case .holding(let until):
            if now >= until {
                rssAfterKiB = options.pid.flatMap(ProcStatus.rssKiB)
                readyAtEnd = readyCount
                phase = .done
            }
        case .done:
            return true
        }
        if case .done = phase { return true }
        return false
    }

    private static let tKey: [UInt8] = Array(#","t":"#.utf8)
    private static let phaseKey: [UInt8] = Array(#","phase":""#.utf8)

    /// The index just after the first occurrence of `key` in `bytes`.
    static func find(_ key: [UInt8], in bytes: [UInt8]) -> Int? {
        var i = 0
        let end = bytes.count - key.count
        search: while i <= end {
            for k in 0..<key.count where bytes[i + k] != key[k] {
                i += 1
                continue search
            }
            return i + key.count
        }
        return nil
    }

    /// `"t":` of a gesture message as µs, when it has at most three decimals.
    static func gestureT(_ bytes: [UInt8]) -> Int64? {
        guard var i = find(tKey, in: bytes) else { return nil }
        var whole: Int64 = 0
        var digits = 0
        while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
            whole = whole * 10 + Int64(bytes[i] - 0x30)
            i += 1
            digits += 1
        }
        guard digits > 0 else { return nil }
        var fraction: Int64 = 0
        var scale: Int64 = 100
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                guard scale > 0 else { return nil }
                fraction += Int64(bytes[i] - 0x30) * scale
                scale /= 10
                i += 1
            }
        }
        return whole * 1000 + fraction
    }
}
