import FoundationEssentials
import GesturePadSystem
import Glibc

/// Whether a process id recorded in `server.json` is still a running GesturePad server: the
/// process exists (`kill(pid, 0)`), and on Linux its name (`/proc/PID/comm`) is `gesturepad`,
/// so a pid the system has since given to another program does not count.
public enum ProcessProbe {
    public static func isGesturePad(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        do throws(SystemCallError) {
            try SystemCall.retrying { kill(pid, 0) }
        } catch {
            // Alive, but another user's.
            guard error.errno == EPERM else { return false }
        }
        guard let comm = FileManager.default.contents(atPath: "/proc/\(pid)/comm") else { return true }
        return isGesturePadName(String(decoding: comm, as: UTF8.self))
    }

    /// The kernel keeps the first 15 bytes of the executable's name, with a newline.
    static func isGesturePadName(_ comm: String) -> Bool {
        comm.trimmingWhitespaceAndNewlines().hasPrefix("gesturepad")
    }
}
