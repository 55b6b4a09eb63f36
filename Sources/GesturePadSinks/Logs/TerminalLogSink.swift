import GestureEngine
import GestureProtocol
import Logging

/// The readable log: one line per gesture on standard output —
/// `05:48:44.123  s1  doubleTap  ended  x=120 y=340 p=1` plus the gesture's key fields.
/// `changed` events only when `verbose`; ANSI colour only when `color`. Written by its own
/// thread (a slow terminal or a full pipe never stalls the server; overflow is counted).
public final class TerminalLogSink: GestureSink {
    private let worker: BackgroundWorker<LogItem>
    private let verbose: Bool

    /// `descriptor` is where lines go (standard output by default).
    public init(verbose: Bool, color: Bool, logger: Logger, descriptor: Int32 = 1, capacity: Int = 8_192) {
        self.verbose = verbose
        HookLaunch.ignoreBrokenPipes()  // stdout piped into a closed reader must not kill the server
        worker = BackgroundWorker(name: "gesturepad.terminal-log", capacity: capacity) {
            TerminalLogWriter(format: TerminalLineFormat(color: color), descriptor: descriptor, logger: logger)
        }
    }

    public func receive(_ event: GestureEvent, session: String) {
        if event.phase == .changed, !verbose { return }
        worker.submit(.event(event, session: session, time: .now()))
    }

    public func session(_ session: String, open: Bool) {
        worker.submit(.session(session, open: open, time: .now()))
    }

    public func reopen() {}

    public func close() { worker.close() }
}

/// The terminal log's writer thread.
struct TerminalLogWriter: WorkerConsumer {
    let format: TerminalLineFormat
    let file: AppendFile
    let logger: Logger
    var buffer: [UInt8] = []

    init(format: TerminalLineFormat, descriptor: Int32, logger: Logger) {
        self.format = format
        self.file = AppendFile(borrowing: descriptor)
        self.logger = logger
    }

    mutating func consume(_ items: [LogItem], dropped: Int) {
        buffer.removeAll(keepingCapacity: true)
        if dropped > 0 {
            logger.warning("terminal log could not keep up; lines dropped", metadata: ["log.dropped": "\(dropped)"])
        }
        for item in items { format.append(item, into: &buffer) }
        _ = file.write(buffer)
    }

    mutating func reopen() {}
    mutating func finish() {}
}
