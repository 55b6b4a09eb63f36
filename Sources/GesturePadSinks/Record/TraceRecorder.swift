import FoundationEssentials
import GesturePadSystem
import GestureProtocol
import Glibc
import Logging

/// `gesturepad serve --record DIR`: every touchpad session's input as one replayable trace
/// file in DIR (`TraceFormat`: the frame with the `hello` first, then every frame as
/// received), named by the session's start time and id (`20261122T054844.123Z-session-3.jsonl`,
/// mode 0600: it holds whatever was typed on the page).
///
/// The service thread only queues frames (`BackgroundWorker`); the writer thread appends each
/// batch of a session's lines with one `write(2)`, so the file is complete up to the last
/// frame handled even if the server is killed, and is closed when the session ends. A file
/// stops growing at `maxBytes`: a note line says so, and the rest of the session is not
/// recorded. When the disk cannot keep up and frames are lost, every open recording gets a note
/// and stops (a recording with a hole would replay differently).
public final class TraceRecorder: InputRecorder {
    /// The default bound of one file: 16 MiB, about 25 minutes of continuous touch at 120 Hz.
    public static let defaultMaxBytes = 16 * 1024 * 1024

    public let directory: String
    public let maxBytes: Int
    private let worker: BackgroundWorker<TraceItem>

    /// Makes `directory` (0700) when missing and checks it can be written; throws a
    /// `RecordError` saying why not.
    public convenience init(
        directory: String, maxBytes: Int = TraceRecorder.defaultMaxBytes, logger: Logger, capacity: Int = 65_536
    ) throws(RecordError) {
        try self.init(directory: directory, maxBytes: maxBytes, logger: logger, capacity: capacity) { $0 }
    }

    /// The same, with the writer wrapped by `wrap` on its thread (tests: a disk that stalls).
    init<Writer: WorkerConsumer>(
        directory: String, maxBytes: Int, logger: Logger, capacity: Int,
        wrap: @escaping @Sendable (TraceWriter) -> Writer
    ) throws(RecordError) where Writer.Item == TraceItem {
        let files = FileManager.default
        do {
            try files.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw RecordError("--record: cannot create the folder \(directory): \(SystemCall.describe(error))")
        }
        do {
            try SystemCall.retrying { access(directory, W_OK | X_OK) }
        } catch {
            throw RecordError("--record: cannot write into \(directory): \(error)")
        }
        self.directory = directory
        self.maxBytes = maxBytes
        worker = BackgroundWorker(name: "gp-record", capacity: capacity) {
            wrap(TraceWriter(directory: directory, maxBytes: maxBytes, logger: logger))
        }
    }

    public func began(_ session: String, with frame: [UInt8]) {
        worker.submit(.began(session: session, time: .now(), frame: frame))
    }

    public func record(_ session: String, _ frame: [UInt8]) {
        worker.submit(.frame(session: session, frame: frame))
    }

    public func ended(_ session: String) {
        worker.submit(.ended(session: session))
    }

    public func close() { worker.close() }

    /// The file name of a recording: start time (UTC, ISO 8601 basic format, ms) and session.
    public static func fileName(start: WallTime, session: String) -> String {
        let time = start.iso8601.filter { $0 != "-" && $0 != ":" }
        let safeSession = String(session.map { $0.isLetter || $0.isNumber ? $0 : "_" })
        return "\(time)-session-\(safeSession).jsonl"
    }
}

/// A recording folder that cannot be used, as one line for the user.
public struct RecordError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// What the service thread hands the writer.
enum TraceItem: Sendable {
    case began(session: String, time: WallTime, frame: [UInt8])
    case frame(session: String, frame: [UInt8])
    case ended(session: String)
}
