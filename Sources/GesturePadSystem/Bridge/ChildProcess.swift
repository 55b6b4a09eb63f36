import CSpawn
import Glibc

/// A process the server starts, with `posix_spawn` — the one place that does: the hooks' `run`
/// and `pipe` processes, the X11 release guard, the desktop's settings tools, the browser of
/// `gesturepad open`. No shell; its standard input, output and error the descriptors given, and
/// no other descriptor of the server's (its sockets, the X and D-Bus connections stay ours);
/// the signals the server handles back at their defaults; its own process group (so the group
/// can be killed whole, grandchildren included), a session of its own, or the server's.
public struct ChildProcess: Sendable, Hashable {
    /// The process's id, which is also its process group's.
    public let pid: pid_t

    /// How a process ended.
    public enum Exit: Sendable, Hashable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)

        /// Exit status 0.
        public var isSuccess: Bool { self == .exited(0) }

        public var description: String {
            switch self {
            case .exited(let code): "exit \(code)"
            case .signaled(let signal): "signal \(signal)"
            }
        }
    }

    /// Which process group the child is in.
    public enum Group: Sendable {
        /// A group of its own, led by the child (`killGroup` ends it and what it started).
        case own
        /// A session of its own, detached from the server's terminal: it outlives the server.
        case session
        /// The server's: a signal to the server's group (Ctrl-C) reaches it too.
        case server
    }

    /// What to start.
    public struct Launch: Sendable {
        /// A name looked up on `PATH`, or a path (a relative one is taken from the server's
        /// working directory, whatever `workingDirectory` is).
        public var program: String
        public var arguments: [String]
        /// The whole environment, as `NAME=value` entries.
        public var environment: [String]
        /// Where the process starts; nil: the server's working directory.
        public var workingDirectory: String?
        public var standardInput: Int32
        public var standardOutput: Int32
        public var standardError: Int32
        public var group: Group

        public init(
            program: String, arguments: [String], environment: [String] = ChildProcess.environment(),
            workingDirectory: String? = nil, standardInput: Int32, standardOutput: Int32, standardError: Int32,
            group: Group = .own
        ) {
            self.program = program
            self.arguments = arguments
            self.environment = environment
            self.workingDirectory = workingDirectory
            self.standardInput = standardInput
            self.standardOutput = standardOutput
            self.standardError = standardError
            self.group = group
        }
    }

    /// Starts `launch`; throws the reason it could not (`ENOENT`, `EACCES`, `ETXTBSY` while the
    /// script is being written…): glibc reports the child's failed `exec` to the caller.
    public static func start(_ launch: Launch) throws(SystemCallError) -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on the copy: the child keeps exactly 0, 1 and 2.
        posix_spawn_file_actions_adddup2(&actions, launch.standardInput, 0)
        posix_spawn_file_actions_adddup2(&actions, launch.standardOutput, 1)
        posix_spawn_file_actions_adddup2(&actions, launch.standardError, 2)
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        if let directory = launch.workingDirectory { posix_spawn_file_actions_addchdir_np(&actions, directory) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        switch launch.group {
        case .own:
            posix_spawnattr_setpgroup(&attributes, 0)
            SpawnSignals.reset(&attributes, flags: Int32(POSIX_SPAWN_SETPGROUP))
        case .session:
            // 0x80: POSIX_SPAWN_SETSID (glibc ≥ 2.26), which Swift's Glibc module does not export.
            SpawnSignals.reset(&attributes, flags: 0x80)
        case .server:
            SpawnSignals.reset(&attributes)
        }
        // A relative path is the server's, not the new working directory's (the chdir comes first).
        var program = launch.program
        if program.contains("/"), !program.hasPrefix("/"), launch.workingDirectory != nil, let here = currentDirectory() {
            program = here + "/" + program
        }
        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + launch.arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp: [UnsafeMutablePointer<CChar>?] = launch.environment.map { strdup($0) } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let status =
            program.contains("/")
            ? posix_spawn(&pid, program, &actions, &attributes, argv, envp)
            : posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
        guard status == 0 else { throw SystemCallError(errno: status) }
        return ChildProcess(pid: pid)
    }

    /// Blocks until the process has ended, without reaping it: until `waitForExit()`, its id
    /// (and its process group's) stays taken, so a kill sent meanwhile cannot reach another
    /// process that got the id. An error (no such child) counts as ended.
    public func waitUntilEnded() {
        var info = siginfo_t()
        _ = try? SystemCall.retrying { waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) }
    }

    /// Blocks until the process has ended, and reaps it: its id is free again from here on,
    /// so nothing may signal it after this. One that is no child of ours (reaped already) is
    /// `.signaled(0)`, which no real end is.
    public func waitForExit() -> Exit {
        var status: Int32 = 0
        do {
            _ = try SystemCall.retrying { waitpid(pid, &status, 0) }
        } catch {
            return .signaled(0)
        }
        // The <sys/wait.h> macros are not visible to Swift: WIFEXITED is "no signal number".
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }

    /// SIGKILL to the process's whole group: it and whatever it started that stayed in it
    /// (a child of `Group.own`).
    public func killGroup() {
        guard pid > 0 else { return }
        _ = Glibc.kill(-pid, SIGKILL)
    }

    /// SIGKILL to the process alone.
    public func kill() {
        guard pid > 0 else { return }
        _ = Glibc.kill(pid, SIGKILL)
    }

    /// `/dev/null` opened for reading or writing, close-on-exec (the caller closes it once the
    /// child has it); -1 when it cannot be opened.
    public static func devNull(writing: Bool) -> Int32 {
        open("/dev/null", (writing ? O_WRONLY : O_RDONLY) | O_CLOEXEC)
    }

    private static func currentDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return String(cString: buffer)
    }

    /// The server's environment as `NAME=value` entries, without the variables `removing`
    /// names, with `adding` after them (a later entry of the same name wins where it matters:
    /// the earlier one is left out).
    public static func environment(removing: Set<String> = [], adding: [(String, String)] = []) -> [String] {
        let added = Set(adding.map(\.0))
        var entries: [String] = []
        var cursor = environ
        while let entry = cursor.pointee {
            let text = String(cString: entry)
            let name = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? text
            if !removing.contains(name), !added.contains(name) { entries.append(text) }
            cursor += 1
        }
        for (name, value) in adding { entries.append(name + "=" + value) }
        return entries
    }
}
