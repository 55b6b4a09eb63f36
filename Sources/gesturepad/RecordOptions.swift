import ArgumentParser
import FoundationEssentials
import GesturePadConfig
import GesturePadSinks
import Logging

/// `--record DIR`, `--record-max-bytes N`: every touchpad session's input kept as a
/// replayable trace file (docs/recording.md).
struct RecordOptions: ParsableArguments {
    @Option(
        name: .customLong("record"),
        help: ArgumentHelp(
            """
            Record every touchpad session's input into DIR, one trace file per session \
            (replay it with `gesturepad replay FILE`). (default: the configuration file's log.record, else off)
            """, valueName: "dir"))
    var directory: String?

    @Option(
        name: .customLong("record-max-bytes"),
        help: ArgumentHelp(
            "Largest recording of one session; past it a note ends the file. (default: \(TraceRecorder.defaultMaxBytes))",
            valueName: "bytes"))
    var maxBytes: Int?

    func validate() throws {
        if let maxBytes, maxBytes < 1024 { throw ValidationError("--record-max-bytes must be at least 1024, not \(maxBytes)") }
    }

    /// The recorder for the merged `log.record` (`--record`, relative to the working
    /// directory, or the file's, relative to its folder), or nil when recording is off.
    func makeRecorder(log: LogSettings, logger: Logger) throws -> TraceRecorder? {
        guard let folder = log.recordDirectory.map(absolute) else { return nil }
        do {
            return try TraceRecorder(directory: folder, maxBytes: maxBytes ?? TraceRecorder.defaultMaxBytes, logger: logger)
        } catch {
            throw CommandFailure.file(error.description)
        }
    }

    private func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            .standardizedFileURL.path
    }
}
