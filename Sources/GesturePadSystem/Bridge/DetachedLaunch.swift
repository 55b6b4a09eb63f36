import Glibc

/// Starts a program that outlives the caller and owes it nothing (`gesturepad open` handing an
/// address to the desktop's browser): found on `PATH`, in a session of its own, its standard
/// input, output and error on /dev/null (`ChildProcess`, `Group.session`). Nobody waits for
/// it; it is reaped by init once the caller has exited.
public enum DetachedLaunch {
    /// Starts `program` (a name looked up on `PATH`, or a path) with `arguments`; returns its pid.
    public static func start(_ program: String, arguments: [String]) throws(SystemCallError) -> pid_t {
        let input = ChildProcess.devNull(writing: false)
        let output = ChildProcess.devNull(writing: true)
        defer {
            close(input)
            close(output)
        }
        guard input >= 0, output >= 0 else { throw SystemCallError(errno: errno) }
        return try ChildProcess.start(
            ChildProcess.Launch(
                program: program, arguments: arguments, standardInput: input, standardOutput: output,
                standardError: output, group: .session)
        ).pid
    }
}
