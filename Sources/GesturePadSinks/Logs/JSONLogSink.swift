import FoundationEssentials
import GestureEngine
import GestureProtocol
import Logging

/// `--log-json FILE`: every gesture event as one JSON line — the protocol's `gesture` message
/// plus `"time"` (ISO-8601 UTC, ms) — appended to FILE and flushed line by line (`tail -f`
/// works). Written by its own thread through a bounded queue; `reopen()` (SIGHUP) reopens the
/// path, so `mv log log.1; kill -HUP` rotates without losing events.
public final class JSONLogSink: GestureSink {
    private let worker: BackgroundWorker<LogItem>
    public let path: String

    /// Opens (creates) `path` for appending; throws when it cannot.
    public init(path: String, logger: Logger, capacity: Int = 65_536) throws {
        self.path = path
        // Opened here, on the caller's thread: fails early, and the file is the one at `path`
        // now (not whenever the writer thread gets to run).
        let file = try AppendFile(path: path)
        worker = BackgroundWorker(name: "gp-log-json", capacity: capacity) {
            JSONLogWriter(path: path, file: file, logger: logger)
        }
    }

    public func receive(_ event: GestureEvent, session: String) {
        worker.submit(.event(event, session: session, time: .now()))
    }

    /// Session open / close are not gesture events: the JSON log holds gesture messages only.
    public func session(_ session: String, open: Bool) {}

    public func reopen() { worker.requestReopen() }

    public func close() { worker.close() }
}

/// The writer thread's state: the open file and a reused line buffer.
struct JSONLogWriter: WorkerConsumer {
    let path: String
    let logger: Logger
    var file: AppendFile?
    var buffer: [UInt8] = []
    var failing = false

    init(path: String, file: AppendFile, logger: Logger) {
        self.path = path
        self.file = file
        self.logger = logger
    }

    private mutating func open() {
        do {
            file = try AppendFile(path: path)
        } catch {
            file = nil
            logger.error("cannot open the JSON log", metadata: ["log.path": "\(path)", "error": "\(error)"])
        }
    }

    mutating func consume(_ items: [LogItem], dropped: Int) {
        if dropped > 0 {
            logger.warning(
                "JSON log could not keep up; events dropped", metadata: ["log.path": "\(path)", "log.dropped": "\(dropped)"])
        }
        guard let file else { return }
        for item in items {
            guard case .event(let event, let session, let time) = item else { continue }
            buffer.removeAll(keepingCapacity: true)
            GestureJSON.append(event, session: session, time: time, into: &buffer)
            buffer.append(UInt8(ascii: "\n"))
            // One write(2) per line on an O_APPEND descriptor: lines never interleave, and a
            // reader sees each line as soon as it is written (no user-space buffering).
            let ok = file.write(buffer)
            if !ok, !failing {
                logger.error("cannot write the JSON log (reported once until it works again)", metadata: ["log.path": "\(path)"])
            }
            failing = !ok
        }
    }

    mutating func reopen() {
        file?.close()
        open()
    }

    mutating func finish() {
        file?.close()
        file = nil
    }
}
