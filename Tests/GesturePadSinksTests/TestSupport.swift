import Foundation
import GestureEngine
import GestureProtocol
import GesturePadSystem
import Logging
import Synchronization
import Testing

@testable import GesturePadSettings
@testable import GesturePadSinks

/// A logger that discards everything (hooks log every failure; tests provoke many).
let quietLogger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

/// A fresh temporary directory. Every test of a hook makes one for its script first, so this
/// also makes the test process ignore SIGPIPE, as `serve` does (`BrokenPipes`): a hook that
/// exits while it is written to must not end the tests.
func makeTempDir() throws -> URL {
    BrokenPipes.ignore()
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("gesturepad-sinks-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Writes an executable script.
@discardableResult
func writeScript(_ dir: URL, _ name: String, _ body: String) throws -> String {
    let url = dir.appendingPathComponent(name)
    try body.write(to: url, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
    return url.path
}

/// Polls `condition` (an outcome of a real process: a file written, a counter reached) until
/// it holds or `seconds` pass; returns whether it held. Never a wait for a time to pass: the
/// generous default only matters when something is broken; a passing condition returns at
/// once. Hooks run on their own threads, so the polling task cannot hold them up.
func eventually(within seconds: Double = 30, _ condition: () throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try condition()
}

/// Closes a sink on a thread of its own: `close()` blocks (bounded) while hook processes end,
/// and a test should not hold one of the few threads of the cooperative pool meanwhile.
func closeOffPool(_ sink: any GestureSink) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        Thread {
            sink.close()
            done.resume()
        }.start()
    }
}

func readText(_ path: String) -> String {
    (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
}

func readLines(_ path: String) -> [String] {
    readText(path).split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
}

/// Parses one JSON object line.
func jsonObject(_ line: String) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
}

/// Sample events.
enum Sample {
    static func tap(t: Double = 100, count: Int = 1, x: Double = 10.5, y: Double = 20) -> GestureEvent {
        GestureEvent(gesture: .tap, phase: .ended, t: t, x: x, y: y, pointers: 1, detail: .count(count))
    }

    static func drag(_ phase: GesturePhase, t: Double, ddx: Double = 1.5, ddy: Double = -2) -> GestureEvent {
        GestureEvent(
            gesture: .drag, phase: phase, t: t, x: 50, y: 60, pointers: 1,
            detail: .motion(
                MotionFields(
                    startX: 40, startY: 70, dx: 10, dy: -10, ddx: ddx, ddy: ddy, vx: 300, vy: -120.25,
                    predictedX: 90, predictedY: 30, predictedDx: 50, predictedDy: -40)))
    }

    static func end(t: Double, reason: EndReason = .release) -> GestureEvent {
        GestureEvent(gesture: .end, phase: .ended, t: t, x: 50, y: 60, pointers: 1, detail: .end(reason: reason, duration: t))
    }

    static func swipe(_ direction: SwipeDirection, t: Double = 300) -> GestureEvent {
        GestureEvent(
            gesture: .swipe, phase: .ended, t: t, x: 200, y: 100, pointers: 3,
            detail: .swipe(SwipeFields(direction: direction, distance: 180, velocity: 950.5, duration: 140)))
    }

    /// One event of every gesture kind (all field shapes).
    static var everyKind: [GestureEvent] {
        GestureKind.allCases.enumerated().map { index, kind in
            var event = GestureCatalog.sampleEvent(kind)
            event.t = Double(index) * 10 + 0.25
            event.x = Double(index)
            event.phase = kind.isContinuous ? .changed : .ended
            return event
        }
    }
}

/// How long `receive` calls took: a sink that blocked on a process or a file would take
/// milliseconds to seconds on *every* call; one that only queues takes microseconds, with
/// scheduler hiccups on a busy 2-core machine (parallel tests, other builds) that can reach any
/// single call. So the judge is the median, which only a blocking sink moves: 20 ms is over
/// 1,000 times the median measured here (a few µs) and far under one process start. Timing
/// itself is `make bench`'s.
struct SubmitLatency {
    private(set) var samples: [Double] = []

    mutating func measure(_ body: () -> Void) {
        let t0 = DispatchTime.now().uptimeNanoseconds
        body()
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9)
    }

    func expectNonBlocking(sourceLocation: SourceLocation = #_sourceLocation) {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return }
        let median = sorted[sorted.count / 2]
        #expect(median < 0.02, "median \(median) s: the sink blocks its caller", sourceLocation: sourceLocation)
    }
}

/// Every log record, as "level message key=value …" lines, for tests that check what a sink
/// logged (hook output, notes).
final class LogCapture: Sendable {
    private let records = Mutex<[String]>([])

    var lines: [String] { records.withLock { $0 } }

    var logger: Logger {
        BrokenPipes.ignore()  // as `makeTempDir`
        return Logger(label: "test") { _ in Handler(capture: self) }
    }

    func append(_ line: String) { records.withLock { $0.append(line) } }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            let fields = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            capture.append(([event.level.rawValue, "\(event.message)"] + fields).joined(separator: " "))
        }
    }
}

/// A clock that stands still until the test advances it: policies and workers built on it
/// are checked on virtual time, exactly, without sleeping.
final class ManualClock: WorkerClock {
    /// Any origin: the policies and workers only take differences (a round number keeps sums
    /// of whole milliseconds exact).
    let origin = 1_000_000.0
    /// Milliseconds since the origin.
    private let elapsed = Mutex<Double>(0)

    var now: Double { origin + elapsed.withLock { $0 } }

    /// The clock's milliseconds `seconds` after the origin.
    func at(_ seconds: Double) -> Double { origin + seconds * 1_000 }

    func advance(by milliseconds: Double) { elapsed.withLock { $0 += milliseconds } }

    func advance(to seconds: Double) { elapsed.withLock { $0 = seconds * 1_000 } }
}

/// Reads a FIFO to its end, blocking this thread (not suspending): for tests that keep every
/// thread of the cooperative pool busy on purpose. `nil` when nothing came within `seconds`
/// (only reached when something is broken).
func readFIFOBlocking(_ path: String, within seconds: Double = 30) -> String? {
    let fd = open(path, O_RDONLY | O_NONBLOCK)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var text: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4_096)
    let deadline = DispatchTime.now() + seconds
    while DispatchTime.now() < deadline {
        var polled = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let left = Int32(
            max(
                1,
                (deadline.uptimeNanoseconds - min(deadline.uptimeNanoseconds, DispatchTime.now().uptimeNanoseconds)) / 1_000_000))
        guard poll(&polled, 1, left) > 0 else { continue }
        let n = read(fd, &buffer, buffer.count)
        if n > 0 {
            text += buffer[..<n]
        } else if n == 0 {
            return String(decoding: text, as: UTF8.self)
        }
    }
    return nil
}
