#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one place outside the C bridges where a system call's `-1` and `errno` become a thrown
/// error (after swift-nio's `System.swift`): the sinks' pipes and files, the server's state
/// folder, the host's access checks and token file.
public enum SystemCall {
    /// Calls `body` (a system call: `-1` and `errno` on failure) again for as long as a signal
    /// interrupts it (`EINTR`); any other failure throws its `errno`.
    @discardableResult
    public static func retrying<Result: FixedWidthInteger & SignedInteger>(_ body: () -> Result) throws(SystemCallError)
        -> Result
    {
        while true {
            let result = body()
            guard result == -1 else { return result }
            let code = errno
            guard code == EINTR else { throw SystemCallError(errno: code) }
        }
    }

    /// The system's words for `code` (`strerror`): "No such file or directory".
    public static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}

/// A system call that failed, with its `errno`; described in the system's words.
public struct SystemCallError: Error, Sendable, Hashable, CustomStringConvertible {
    public let errno: Int32

    public init(errno: Int32) {
        self.errno = errno
    }

    public var description: String { SystemCall.describe(errno) }

    /// The call would have blocked a non-blocking descriptor (`EAGAIN` / `EWOULDBLOCK`): try
    /// again once it is ready.
    public var wouldBlock: Bool { errno == EAGAIN || errno == EWOULDBLOCK }
}
