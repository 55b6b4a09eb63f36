import GesturePadSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `run` hook's whole stdin, written into a pipe before the process starts: the process gets
/// the read end as its fd 0 and reads the event, then end of file (the write end is closed
/// once the bytes are in).
///
/// Why not swift-subprocess's input writer: its Linux I/O registry (1.0.2) keeps an entry per
/// process that wrote through it — the process id and an empty descriptor set, never removed —
/// so a server starting hooks for weeks grows by one entry per process (issue 35). A pipe
/// written up front registers nothing, and a process that exits without reading leaves no
/// failed write behind (the bytes just go with the pipe).
///
/// The bytes must fit in the pipe's buffer (at least one page on Linux, 64 KiB by default): an
/// event's JSON line is well under a kilobyte. The write end is non-blocking, so a payload that
/// does not fit fails here (`EAGAIN`) instead of blocking the worker; the read end is made
/// blocking again, as a process expects its stdin.
struct InputPipe: Sendable {
    /// The end the process reads (close-on-exec: a process gets it only as its fd 0).
    let readEnd: Int32

    /// A pipe holding `bytes`, its write end closed; throws the failing call's error (no pipe
    /// is left open then).
    init(holding bytes: [UInt8]) throws(SystemCallError) {
        let pipe = try OutputPipe(nonBlockingWrites: true)
        defer { pipe.closeWriteEnd() }
        do throws(SystemCallError) {
            let written = try SystemCall.retrying { write(pipe.writeEnd, bytes, bytes.count) }
            guard written == bytes.count else { throw SystemCallError(errno: EAGAIN) }
            // The process reads it as a plain (blocking) stdin.
            let flags = try SystemCall.retrying { fcntl(pipe.readEnd, F_GETFL) }
            try SystemCall.retrying { fcntl(pipe.readEnd, F_SETFL, flags & ~O_NONBLOCK) }
        } catch {
            pipe.closeReadEnd()
            throw error
        }
        readEnd = pipe.readEnd
    }

    /// Closes the read end (once the process has it, or it failed to start).
    func close() { _ = Glibc.close(readEnd) }
}
