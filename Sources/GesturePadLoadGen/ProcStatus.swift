import Foundation

/// Reads a process's resident set size from `/proc/PID/status` (Linux).
enum ProcStatus {
    /// `VmRSS` in KiB, or nil when the process or the line is missing.
    static func rssKiB(_ pid: Int) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        }
        return nil
    }
}
