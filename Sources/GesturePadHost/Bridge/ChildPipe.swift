import GesturePadSystem
import Glibc

/// A child process fed through a pipe on its standard input, for the release guard: the
/// server writes to it while it lives, and the child reads end-of-file the moment the server's
/// end closes — when the server exits, crashes or is killed, since the kernel closes a dead
/// process's descriptors. It is started by `ChildProcess`, as every child of the server is.
///
/// The write end is close-on-exec, so that no hook or other child the server starts keeps
/// the pipe open after the server is gone.
final class ChildPipe {
    let pid: pid_t
    private var writeEnd: Int32

    private init(pid: pid_t, writeEnd: Int32) {
        self.pid = pid
        self.writeEnd = writeEnd
    }

    deinit {
        close()
    }

    /// Starts `executable` with `arguments` (argv[1...]) and the environment of this process,
    /// its standard input the read end of a new pipe (`ChildProcess`).
    static func spawn(executable: String, arguments: [String]) throws(SystemCallError) -> ChildPipe {
        var ends: [Int32] = [-1, -1]
        // pipe2(O_CLOEXEC) is not in Swift's Glibc module (a _GNU_SOURCE function): between the
        // two calls the ends are inheritable, which matters to no child of the server's, since
        // each closes every descriptor from 3 up (`ChildProcess`).
        try SystemCall.retrying { pipe(&ends) }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        for end in [readEnd, writeEnd] { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        defer { Glibc.close(readEnd) }

        let child: ChildProcess
        do {
            // The child keeps the server's standard output and error, and its process group (a
            // Ctrl-C on the terminal reaches both; the guard outlives the server by itself).
            child = try ChildProcess.start(
                ChildProcess.Launch(
                    program: executable, arguments: arguments, standardInput: readEnd,
                    standardOutput: STDOUT_FILENO, standardError: STDERR_FILENO, group: .server))
        } catch {
            Glibc.close(writeEnd)
            throw error
        }
        let pid = child.pid
        return ChildPipe(pid: pid, writeEnd: writeEnd)
    }

    /// Writes all of `text`; false when the child is gone (the pipe broke) or the write failed.
    /// Blocks only while the pipe is full (the child reads it at once).
    func write(_ text: String) -> Bool {
        guard writeEnd >= 0 else { return false }
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return true }
            var offset = 0
            while offset < buffer.count {
                do {
                    offset += try SystemCall.retrying { Glibc.write(writeEnd, base + offset, buffer.count - offset) }
                } catch {
                    return false
                }
            }
            return true
        }
    }

    /// Closes the server's end (the child reads end-of-file, does its work and exits) and reaps
    /// the child if it has already exited. Later calls do nothing.
    func close() {
        guard writeEnd >= 0 else { return }
        Glibc.close(writeEnd)
        writeEnd = -1
        var status: Int32 = 0
        _ = waitpid(pid, &status, WNOHANG)
    }
}
