import Foundation

/// Reads a process's resident set size from `/proc/PID/status` (Linux).
enum ProcStatus {
    /// Busy CPU time of the whole machine (all CPUs, seconds), from the first line of `/proc/stat`.
    static func machineBusySeconds() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = text.split(separator: "\n").first
        else { return nil }
        let values = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard values.count > 4 else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return (values.reduce(0, +) - values[3] - values[4]) / (ticks > 0 ? ticks : 100)  // minus idle, iowait
    }

    /// CPU time (user + system, seconds) the process has used, from `/proc/PID/stat`.
    static func cpuSeconds(_ pid: Int) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm) ": state is field 3; utime and stime are fields 14 and 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return (user + system) / (ticks > 0 ? ticks : 100)
    }

    /// `VmRSS` in KiB, or nil when the process or the line is missing.
    static func rssKiB(_ pid: Int) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        }
        return nil
    }
}
