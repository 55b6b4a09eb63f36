import Foundation
import Glibc

/// An Xvfb server of the test's own, on a free display number, stopped at the end (SIGTERM,
/// so that it removes its socket and lock file).
final class XvfbServer {
    let number: Int
    private let process: SpawnedProcess
    var name: String { ":\(number)" }

    /// Xvfb's path when it is on PATH.
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/Xvfb" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    struct StartError: Error, CustomStringConvertible {
        var description: String
    }

    private init(number: Int, process: SpawnedProcess) {
        self.number = number
        self.process = process
    }

    deinit { stop() }

    /// Starts `Xvfb :N -screen 0 1280x800x24 -nolisten tcp` (plus `arguments`) on the first
    /// free N from a per-process base, and waits (polling, 10 s deadline) for its socket.
    static func start(arguments: [String] = []) throws -> XvfbServer {
        guard let executable else { throw StartError(description: "Xvfb is not on PATH") }
        let base = 40 + Int(getpid() % 200)
        for number in base..<(base + 30) {
            let socket = "/tmp/.X11-unix/X\(number)"
            let fileManager = FileManager.default
            if fileManager.fileExists(atPath: socket) || fileManager.fileExists(atPath: "/tmp/.X\(number)-lock") { continue }
            let process = try SpawnedProcess(
                executable: executable, arguments: [":\(number)", "-screen", "0", "1280x800x24", "-nolisten", "tcp"] + arguments)
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning, !isOwned(number: number, by: process), Date() < deadline {
                usleep(10_000)
            }
            if process.isRunning, isOwned(number: number, by: process) {
                return XvfbServer(number: number, process: process)
            }
            // Lost a race for that number, or too slow: try the next.
            process.stop()
        }
        throw StartError(description: "no free display number for Xvfb")
    }

    /// The display's socket exists and its lock file names `process` (not a server that won
    /// the same number a moment earlier).
    private static func isOwned(number: Int, by process: SpawnedProcess) -> Bool {
        guard FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)"),
            let lock = try? String(contentsOfFile: "/tmp/.X\(number)-lock", encoding: .utf8)
        else { return false }
        return Int32(lock.trimmingCharacters(in: .whitespacesAndNewlines)) == process.pid
    }

    func stop() {
        process.stop()
    }
}
