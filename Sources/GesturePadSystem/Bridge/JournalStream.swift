import Glibc

/// Whether this process writes to the systemd journal, as a service does: systemd names the
/// stream it connected in `JOURNAL_STREAM` ("device:inode"). A shell started from a service (a
/// terminal emulator run as a user unit) inherits the variable but writes to its terminal, so
/// the variable alone proves nothing: the stream must be this process's standard error.
public enum JournalStream {
    /// True when standard error is the stream `JOURNAL_STREAM` (from `environment`) names.
    public static func isStandardError(environment: [String: String]) -> Bool {
        guard let value = environment["JOURNAL_STREAM"] else { return false }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var status = stat()
        guard fstat(STDERR_FILENO, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }
}
