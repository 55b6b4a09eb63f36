import GesturePadSystem
import Glibc

/// A child process fed through a pipe on its standard input, for the release guard: the
/// server writes to it while it lives, and the child reads end-of-file the moment the server's
/// end closes — when the server exits, crashes or is killed, since the kernel closes a dead
/// process's descriptors. (Hooks start theirs with `ChildProcess`, in GesturePadSystem.)
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
    /// its standard input the read end of a new pipe, its signal mask empty and its signal
    /// dispositions the defaults.
    static func spawn(executable: String, arguments: [String]) throws(SystemCallError) -> ChildPipe {
        var ends: [Int32] = [-1, -1]
        // pipe2(O_CLOEXEC) is not in Swift's Glibc module (a _GNU_SOURCE function); the server
        // starts this before any hook, so nothing can be spawned between the two calls.
        try SystemCall.retrying { pipe(&ends) }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        for end in [readEnd, writeEnd] { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        defer { Glibc.close(readEnd) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on the copy: the child keeps its standard input.
        posix_spawn_file_actions_adddup2(&actions, readEnd, 0)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        SpawnSignals.reset(&attributes)

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard status == 0 else {
            Glibc.close(writeEnd)
            throw SystemCallError(errno: status)
        }
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
