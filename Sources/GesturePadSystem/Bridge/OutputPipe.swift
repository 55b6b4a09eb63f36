#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pipe whose write end child processes get as stdout or stderr (a hook's processes, a
/// program `ProgramOutput` reads) and whose read end one thread of the server reads, or a
/// wake-up pipe (`ring`): both ends close-on-exec (a process gets the write end only as
/// its fd 1 or 2, which `dup2` makes inheritable), the read end non-blocking.
///
/// `pipe2(O_CLOEXEC)` is not visible to Swift without `_GNU_SOURCE`; `pipe` then `fcntl` leaves
/// a moment in which a concurrent `fork` could inherit the ends, but the one spawner,
/// `ChildProcess`, closes every descriptor above 2 in its children anyway.
public struct OutputPipe: Sendable {
    public let readEnd: Int32
    public let writeEnd: Int32

    /// Throws the failing call's error when the system refuses (out of descriptors); no end is
    /// left open then.
    /// - Parameter nonBlockingWrites: the write end too (a wake-up pipe, which must never block).
    public init(nonBlockingWrites: Bool = false) throws(SystemCallError) {
        var ends: [Int32] = [-1, -1]
        try SystemCall.retrying { pipe(&ends) }
        func nonBlocking(_ fd: Int32) throws(SystemCallError) {
            let flags = try SystemCall.retrying { fcntl(fd, F_GETFL) }
            try SystemCall.retrying { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
        }
        do throws(SystemCallError) {
            try SystemCall.retrying { fcntl(ends[0], F_SETFD, FD_CLOEXEC) }
            try SystemCall.retrying { fcntl(ends[1], F_SETFD, FD_CLOEXEC) }
            try nonBlocking(ends[0])
            if nonBlockingWrites { try nonBlocking(ends[1]) }
        } catch {
            _ = Glibc.close(ends[0])
            _ = Glibc.close(ends[1])
            throw error
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    /// What one read returned.
    public enum ReadResult: Equatable, Sendable {
        case bytes(Int)
        /// Nothing to read now.
        case empty
        /// Every write end is closed, or the descriptor failed: nothing will come.
        case ended
    }

    /// Reads what is there, up to `buffer.count` bytes, into `buffer`.
    public func read(into buffer: inout [UInt8]) -> ReadResult {
        do {
            let n = try SystemCall.retrying { Glibc.read(readEnd, &buffer, buffer.count) }
            return n > 0 ? .bytes(n) : .ended
        } catch {
            return error.wouldBlock ? .empty : .ended
        }
    }

    /// Writes one byte (the wake-up of a `wait`); a full wake pipe is awake already.
    public func ring() {
        var byte: UInt8 = 1
        _ = Glibc.write(writeEnd, &byte, 1)
    }

    public func closeWriteEnd() { _ = Glibc.close(writeEnd) }
    public func closeReadEnd() { _ = Glibc.close(readEnd) }

    /// Waits until one of `descriptors` is readable (or hung up), or until `timeout`
    /// (`nil`: no limit). Returns the readable ones.
    /// `timeout` in milliseconds.
    public static func wait(for descriptors: [Int32], timeout: Double?) -> Set<Int32> {
        var polled = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let milliseconds = timeout.map { Self.milliseconds($0) } ?? -1
        guard poll(&polled, nfds_t(polled.count), milliseconds) > 0 else { return [] }
        return Set(polled.filter { $0.revents != 0 }.map(\.fd))
    }

    /// A timeout for `poll(2)`: rounded up (never early, so never a spin), at most a minute.
    public static func milliseconds(_ duration: Double) -> Int32 {
        Int32(min(60_000, max(0, duration).rounded(.up)))
    }
}
