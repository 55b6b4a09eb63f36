import FoundationEssentials
import GestureProtocol
import Glibc
import Logging

/// The recorder's writer thread: one open file per live touchpad session.
struct TraceWriter: WorkerConsumer {
    /// One session's recording.
    struct Trace {
        var file: AppendFile?
        let path: String
        /// Bytes in the file so far.
        var size = 0
        var frames = 0
        /// Set once the file stopped growing (its bound, lost frames, a write error).
        var stopped = false
        /// Lines of this batch, written with one `write(2)`.
        var pending: [UInt8] = []
    }

    let directory: String
    let maxBytes: Int
    let logger: Logger
    var traces: [String: Trace] = [:]

    init(directory: String, maxBytes: Int, logger: Logger) {
        self.directory = directory
        self.maxBytes = maxBytes
        self.logger = logger
    }

    mutating func consume(_ items: [TraceItem], dropped: Int) {
        for item in items {
            switch item {
            case .began(let session, let time, let frame):
                if traces[session] != nil { finish(session) }  // an id reused (cannot happen in one run)
                guard var trace = open(session, time) else { continue }
                append(frame, to: &trace)
                traces[session] = trace
            case .frame(let session, let frame):
                guard var trace = traces[session] else { continue }
                append(frame, to: &trace)
                traces[session] = trace
            case .ended(let session):
                finish(session)
            }
        }
        // Frames are dropped only while the queue is full, so after every item of this batch.
        if dropped > 0 { lose(dropped) }
        for session in Array(traces.keys) { flush(session) }
    }

    mutating func reopen() {}

    mutating func finish() {
        for session in Array(traces.keys) { finish(session) }
    }

    // MARK: - Files

    private func open(_ session: String, _ time: WallTime) -> Trace? {
        let name = TraceRecorder.fileName(start: time, session: session)
        var path = directory + "/" + name
        for attempt in 2...100 {
            do {
                let file = try AppendFile(path: path, mode: 0o600, exclusive: true)
                logger.info("recording session", metadata: ["record.session": "\(session)", "record.path": "\(path)"])
                return Trace(file: file, path: path)
            } catch {
                guard error.errno == EEXIST else {
                    logger.error("cannot record session", metadata: ["record.session": "\(session)", "error": "\(error)"])
                    return nil
                }
                // Two servers sharing a folder, or a clock set back: never overwrite a recording.
                path = directory + "/" + name.replacing(".jsonl", with: "-\(attempt).jsonl")
            }
        }
        logger.error("cannot record session: no free file name", metadata: ["record.session": "\(session)"])
        return nil
    }

    /// Queues a frame's line, or the note that ends the recording when it would pass `maxBytes`.
    private func append(_ frame: [UInt8], to trace: inout Trace) {
        guard !trace.stopped else { return }
        let before = trace.pending.count
        TraceFormat.appendLine(frame, to: &trace.pending)
        let lineBytes = trace.pending.count - before
        guard trace.size + trace.pending.count > maxBytes else {
            trace.frames += 1
            return
        }
        trace.pending.removeLast(lineBytes)
        stop(&trace, note: "recording truncated: the file reached its limit of \(maxBytes) bytes; later input was not recorded")
    }

    private mutating func flush(_ session: String) {
        guard var trace = traces[session], !trace.pending.isEmpty, let file = trace.file else { return }
        if file.write(trace.pending) {
            trace.size += trace.pending.count
        } else {
            logger.error("cannot write a recording; it stops here", metadata: ["record.path": "\(trace.path)"])
            trace.stopped = true
        }
        trace.pending.removeAll(keepingCapacity: true)
        traces[session] = trace
    }

    private mutating func finish(_ session: String) {
        flush(session)
        guard let trace = traces.removeValue(forKey: session) else { return }
        trace.file?.close()
        logger.info(
            "recording closed",
            metadata: [
                "record.session": "\(session)", "record.path": "\(trace.path)", "record.frames": "\(trace.frames)",
                "record.bytes": "\(trace.size)",
            ])
    }

    /// Frames were lost (the queue was full): no open recording can be trusted past this point.
    private mutating func lose(_ count: Int) {
        for session in Array(traces.keys) {
            guard var trace = traces[session], !trace.stopped else { continue }
            stop(
                &trace,
                note: "recording stopped: \(count) frames were lost (the disk could not keep up); later input was not recorded")
            traces[session] = trace
        }
    }

    private func stop(_ trace: inout Trace, note: String) {
        TraceFormat.appendNote(note, to: &trace.pending)
        trace.stopped = true
        logger.warning("\(note)", metadata: ["record.path": "\(trace.path)"])
    }
}
