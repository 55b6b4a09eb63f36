import CLibWebSocketsClient
import Foundation

/// The libwebsockets side of the load generator: one client context, one service thread
/// (the caller's), N connections. All lws calls of the generator live here; `LoadRun` decides.
final class LWSClient {
    let options: LoadOptions
    let run: LoadRun
    /// Each connection's lws handle, once established (nil before and after).
    var wsis: [OpaquePointer?]
    private var context: OpaquePointer? = nil
    /// The timer that wakes the service loop when the run's phase ends on its own (lws's own
    /// scheduler: the poll sleeps until it, and no longer).
    private let wakeTimer: UnsafeMutablePointer<gp_wake_timer>
    private let protocols: UnsafeMutablePointer<lws_protocols>
    private let protocolName: UnsafeMutablePointer<CChar>?
    private let host: UnsafeMutablePointer<CChar>?
    private let path: UnsafeMutablePointer<CChar>?
    private var writeFailures = 0

    init(options: LoadOptions, script: TraceScript) {
        self.options = options
        run = LoadRun(options: options, script: script, headroom: Int(CLWS_PRE), now: LoadRun.now())
        wsis = Array(repeating: nil, count: options.connections)
        protocolName = strdup("gesturepad-loadgen")
        host = strdup(options.host)
        path = strdup(options.requestPath)
        // The protocol list: ours, then the zeroed terminator (4.1.6 has no LWS_PROTOCOL_LIST_TERM).
        protocols = UnsafeMutablePointer<lws_protocols>.allocate(capacity: 2)
        protocols.initialize(repeating: lws_protocols(), count: 2)
        protocols[0].name = UnsafePointer(protocolName)
        protocols[0].callback = loadGenCallback
        protocols[0].rx_buffer_size = 65_536
        wakeTimer = UnsafeMutablePointer<gp_wake_timer>.allocate(capacity: 1)
        wakeTimer.initialize(to: gp_wake_timer())
    }

    deinit {
        wakeTimer.deallocate()
        protocols.deallocate()
        free(protocolName)
        free(host)
        free(path)
    }

    /// Creates the context and starts every connection. False when lws refuses.
    func start() -> Bool {
        lws_set_log_level(Int32(LLL_ERR), nil)
        var info = lws_context_creation_info()
        info.port = -1  // CONTEXT_PORT_NO_LISTEN: a client only
        info.protocols = UnsafePointer(protocols)
        info.gid = -1
        info.uid = -1
        info.fd_limit_per_thread = UInt32(options.connections + 64)
        info.user = Unmanaged.passUnretained(self).toOpaque()
        guard let context = lws_create_context(&info) else { return false }
        self.context = context
        wakeTimer.pointee.context = context
        for i in 0..<options.connections { connect(i) }
        return true
    }

    private func connect(_ i: Int) {
        var connect = lws_client_connect_info()
        connect.context = context
        connect.address = UnsafePointer(host)
        connect.port = Int32(options.port)
        connect.path = UnsafePointer(path)
        connect.host = UnsafePointer(host)
        connect.opaque_user_data = UnsafeMutableRawPointer(bitPattern: i + 1)
        if lws_client_connect_via_info(&connect) == nil {
            run.failed(i, now: LoadRun.now())
        }
    }

    /// Runs the service loop until the run is over, then destroys the context. After every
    /// service pass (traffic, a connection's timer, or the wake timer) `LoadRun.tick` moves
    /// the run along and names the deadline of its phase, for which the wake timer is
    /// (re)armed: with no traffic, the loop sleeps until the phase ends and wakes right then.
    func serve() {
        guard let context else { return }
        var armed: Double? = nil
        while case .wait(let deadline) = run.tick(now: LoadRun.now()) {
            if deadline != armed {
                armed = deadline
                let micros = max((deadline - LoadRun.now()) * 1e6, 0).rounded(.up)
                lws_sul_schedule(context, 0, gp_wake_sul(wakeTimer), loadGenWake, lws_usec_t(micros))
            }
            applyRequests()
            if lws_service(context, 0) < 0 { break }
        }
        lws_sul_cancel(gp_wake_sul(wakeTimer))
        self.context = nil
        lws_context_destroy(context)
    }

    /// Writes the frame `LoadRun` puts in its send buffer; -1 closes the connection.
    func write(_ i: Int, wsi: OpaquePointer) -> Int32 {
        guard run.writable(i, now: LoadRun.now()) else { return 0 }
        let length = run.sendBuffer.count - run.headroom
        let headroom = run.headroom
        let written = run.sendBuffer.withUnsafeMutableBytes { raw -> Int32 in
            guard let base = raw.baseAddress else { return -1 }
            return lws_write(wsi, base.advanced(by: headroom).assumingMemoryBound(to: UInt8.self), length, LWS_WRITE_TEXT)
        }
        if written < Int32(length) {
            writeFailures += 1
            return -1
        }
        return 0
    }

    /// Turns `LoadRun`'s queued wake-ups and timers into lws calls.
    func applyRequests() {
        if !run.wake.isEmpty {
            for i in run.wake {
                if let wsi = wsis[i] { lws_callback_on_writable(wsi) }
            }
            run.wake.removeAll(keepingCapacity: true)
        }
        if !run.timers.isEmpty {
            for (i, micros) in run.timers {
                if let wsi = wsis[i] { lws_set_timer_usecs(wsi, lws_usec_t(micros)) }
            }
            run.timers.removeAll(keepingCapacity: true)
        }
    }
}
