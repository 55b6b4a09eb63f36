import Glibc

/// Starts a program that outlives the caller and owes it nothing (`gesturepad open` handing an
/// address to the desktop's browser): found on `PATH`, in a session of its own, its standard
/// input, output and error on /dev/null, signals as they are by default. Nobody waits for it;
/// it is reaped by init once the caller has exited.
public enum DetachedLaunch {
    /// Starts `program` (a name looked up on `PATH`, or a path) with `arguments`; returns its pid.
    public static func start(_ program: String, arguments: [String]) throws(SystemCallError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in 0...2 {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // 0x80: POSIX_SPAWN_SETSID (glibc ≥ 2.26), which Swift's Glibc module does not export.
        SpawnSignals.reset(&attributes, flags: 0x80)
        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, program, &actions, &attributes, argv, environ)
        guard status == 0 else { throw SystemCallError(errno: status) }
        return pid
    }
}
