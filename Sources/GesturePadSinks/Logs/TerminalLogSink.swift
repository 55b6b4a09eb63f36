import GestureEngine
import GestureProtocol
import Logging

/// The readable log on standard output: one line per thing the person did —
/// `05:48:44.123  1  tap ×2`, `drag → 149 px`, `typed 11 characters`, `right click`
/// (`ActivitySummary`) — and one when the silence rule let go of something, with why. With
/// `verbose`, also every gesture event with its phase and key fields
/// (`05:48:44.123  1  doubleTap  ended  x=120 y=340 p=1`). ANSI colour only when `color`.
/// Written by its own thread (a slow terminal or a full pipe never stalls the server; overflow
/// is counted).
public final class TerminalLogSink: GestureSink {
    private let worker: BackgroundWorker<LogItem>
    private let verbose: Bool

    /// `descriptor` is where lines go (standard output by default).
    public init(verbose: Bool, color: Bool, logger: Logger, descriptor: Int32 = 1, capacity: Int = 8_192) {
        self.verbose = verbose
        worker = BackgroundWorker(name: "gp-log-terminal", capacity: capacity) {
            TerminalLogWriter(
                format: TerminalLineFormat(color: color), verbose: verbose, descriptor: descriptor, logger: logger)
        }
    }

    public func receive(_ event: GestureEvent, session: String) {
        if event.phase == .changed, !verbose { return }
        worker.submit(.event(event, session: session, time: .now()))
    }

    public func session(_ session: String, open: Bool) {
        worker.submit(.session(session, open: open, time: .now()))
    }

    public func note(_ note: SessionNote, session: String) {
        worker.submit(.note(note, session: session, time: .now()))
    }

    public func reopen() {}

    public func close() { worker.close() }
}

/// The terminal log's writer thread: the summary of what each session did, and its lines.
struct TerminalLogWriter: WorkerConsumer {
    let format: TerminalLineFormat
    let verbose: Bool
    let file: AppendFile
    let logger: Logger
    var buffer: [UInt8] = []
    var summary = ActivitySummary()
    var lines: [ActivityLine] = []

    init(format: TerminalLineFormat, verbose: Bool, descriptor: Int32, logger: Logger) {
        self.format = format
        self.verbose = verbose
        self.file = AppendFile(borrowing: descriptor)
        self.logger = logger
    }

    mutating func consume(_ items: [LogItem], dropped: Int) {
        buffer.removeAll(keepingCapacity: true)
        if dropped > 0 {
            logger.warning("terminal log could not keep up; lines dropped", metadata: ["log.dropped": "\(dropped)"])
        }
        for item in items {
            switch item {
            case .event(let event, let session, let time):
                if verbose { format.append(item, into: &buffer) }
                summary.take(event, session: session, time: time, into: &lines)
                appendLines()
            case .note(let note, let session, let time):
                summary.take(note, session: session, time: time, into: &lines)
                appendLines()
            case .session(let session, let open, _):
                if !open {
                    summary.close(session, into: &lines)
                    appendLines()
                }
                format.append(item, into: &buffer)
            }
        }
        _ = file.write(buffer)
    }

    private mutating func appendLines() {
        for line in lines { format.append(line, into: &buffer) }
        lines.removeAll(keepingCapacity: true)
    }

    mutating func reopen() {}
    mutating func finish() {}
}
