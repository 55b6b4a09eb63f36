#if canImport(Glibc)
    import Glibc
#endif

/// What a run measures: the traffic acknowledged and the latencies (counted only while
/// measuring), the server's close codes, and the CPU and memory of the server (`--pid`), this
/// process and the rest of the machine around the measured window.
struct LoadMeasurements {
    var framesAcked = 0
    var messagesAcked = 0
    var gestureMessages = 0
    var errorMessages = 0
    var roundTrip = LatencyHistogram()
    var gestureLatency = LatencyHistogram()
    /// Only the events with phase `ended` (a gesture completed).
    var completedLatency = LatencyHistogram()
    private(set) var measuredSeconds = 0.0
    /// Close codes of the server's close frames, counted.
    var closeCodes: [Int: Int] = [:]
    private(set) var rssBeforeKiB: Int?
    private(set) var rssAfterKiB: Int? = nil
    /// CPU seconds used while measuring (server: `--pid`; client: this process).
    private(set) var serverCPU: Double? = nil
    private(set) var clientCPU: Double? = nil
    /// CPU seconds the rest of the machine (neither the server nor this process) used while measuring.
    private(set) var othersCPU: Double? = nil
    private var cpuAtStart: (server: Double?, client: Double?, machine: Double?) = (nil, nil, nil)
    private let serverPID: Int?

    /// Reads the server's RSS before any connection opens.
    init(serverPID: Int?) {
        self.serverPID = serverPID
        rssBeforeKiB = serverPID.flatMap(ProcStatus.rssKiB)
    }

    /// The measured window opens: the CPU times it starts from.
    mutating func start() {
        cpuAtStart = (
            serverPID.flatMap(ProcStatus.cpuSeconds), ProcStatus.cpuSeconds(Int(getpid())), ProcStatus.machineBusySeconds()
        )
    }

    /// The measured window (`seconds` long) closes: the CPU each used in it, the server's RSS.
    mutating func finish(seconds: Double) {
        measuredSeconds = seconds
        rssAfterKiB = serverPID.flatMap(ProcStatus.rssKiB)
        if let start = cpuAtStart.server, let end = serverPID.flatMap(ProcStatus.cpuSeconds) {
            serverCPU = end - start
        }
        if let start = cpuAtStart.client, let end = ProcStatus.cpuSeconds(Int(getpid())) {
            clientCPU = end - start
        }
        if let start = cpuAtStart.machine, let end = ProcStatus.machineBusySeconds() {
            othersCPU = max(end - start - (serverCPU ?? 0) - (clientCPU ?? 0), 0)
        }
    }

    /// Idle mode's end: only the server's RSS.
    mutating func finishHolding() {
        rssAfterKiB = serverPID.flatMap(ProcStatus.rssKiB)
    }
}
