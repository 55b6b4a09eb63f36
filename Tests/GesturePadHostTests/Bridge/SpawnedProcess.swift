import Glibc

/// A child process for the tests (Xvfb), started with `posix_spawn` rather than Foundation's
/// `Process`: tests run on dispatch threads that block SIGTERM, a child inherits that mask,
/// and Xvfb never resets it — so `Process.terminate()` would never land and
/// `waitUntilExit()` would hang. Here the child gets an empty mask, default handlers, its own
/// process group, and /dev/null for its standard streams.
final class SpawnedProcess {
    struct SpawnError: Error, CustomStringConvertible {
        var description: String
    }

    let pid: pid_t
    private var exited = false

    init(executable: String, arguments: [String]) throws {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        guard result == 0 else { throw SpawnError(description: "posix_spawn \(executable): error \(result)") }
        pid = child
    }

    deinit { stop() }

    var isRunning: Bool {
        guard !exited else { return false }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == pid || result < 0 { exited = true }
        return !exited
    }

    /// SIGTERM, then up to `timeout` seconds for the child to exit, then SIGKILL; reaps it.
    func stop(timeout: Double = 5) {
        guard isRunning else { return }
        kill(pid, SIGTERM)
        var waited = 0.0
        while isRunning, waited < timeout {
            usleep(5_000)
            waited += 0.005
        }
        guard isRunning else { return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        exited = true
    }
}
