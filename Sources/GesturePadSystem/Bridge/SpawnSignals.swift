import Glibc

/// How a spawned child starts, signal-wise: nothing blocked, and the signals the server catches
/// or ignores (SIGINT, SIGTERM, SIGHUP, SIGUSR1; SIGPIPE ignored) back at their defaults, with
/// SIGCHLD — a child must not inherit the server's handling (exec resets a caught signal, not
/// an ignored one).
public enum SpawnSignals {
    /// Sets that on `attributes`, with `flags` (`POSIX_SPAWN_…`) besides.
    public static func reset(_ attributes: inout posix_spawnattr_t, flags: Int32 = 0) {
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | flags))
    }
}
