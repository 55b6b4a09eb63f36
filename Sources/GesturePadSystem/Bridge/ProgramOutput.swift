import Glibc

/// Runs a short program and reads what it prints (the desktop's settings tools: `gsettings`,
/// `swaymsg`): found on `PATH`, its standard input and error on /dev/null, signals as they are
/// by default, its output read up to `limit` bytes. A program that is still running after
/// `timeoutMilliseconds` is killed. Blocks the calling thread: call it from a worker.
public enum ProgramOutput {
    /// What `program` printed, when it started and exited with status 0 in time; nil otherwise.
    public static func read(
        _ program: String, arguments: [String], limit: Int = 256 * 1_024, timeoutMilliseconds: Int32 = 2_000
    ) -> [UInt8]? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        defer { close(readEnd) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        SpawnSignals.reset(&attributes)
        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let started = posix_spawnp(&pid, program, &actions, &attributes, argv, environ)
        close(writeEnd)
        guard started == 0 else { return nil }

        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096)
        var timedOut = false
        while output.count <= limit {
            var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, timeoutMilliseconds)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else {
                timedOut = true
                break
            }
            let count = chunk.withUnsafeMutableBytes { Glibc.read(readEnd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            output += chunk.prefix(count)
        }
        if timedOut || output.count > limit { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let exitedCleanly = (status & 0x7F) == 0 && ((status >> 8) & 0xFF) == 0
        return !timedOut && output.count <= limit && exitedCleanly ? output : nil
    }
}
