import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process's stdin (a hook's: GesturePadSinks' runners): the process reads the read end
/// as a plain blocking fd 0; the server writes into the write end, which is non-blocking, so a
/// process that stops reading never blocks the thread that feeds it (a hook rule's worker).
///
/// A `run` process's whole stdin is written before it starts (`init(holding:)`): it reads its
/// event, then the end of file, and one that exits without reading leaves nothing behind. A
/// `pipe` process is fed event lines while it lives (`write`): a full pipe is waited out on a
/// short-lived thread of its own, in a `poll` that also watches a wake pipe, so `stop()` (the
/// process ended, or the server closes) ends every wait at once.
public final class PipeInput: Sendable {
    /// The end the process gets as its fd 0 (close-on-exec otherwise); closed here once the
    /// process has it (`closeReadEnd`).
    public let readEnd: Int32
    private let ends: Mutex<(write: Int32?, read: Int32?)>
    /// Rung by `stop()` to end every wait for room; none for a pipe filled at once.
    private let wake: OutputPipe?

    /// The write end failed or was stopped.
    public enum WriteError: Error {
        case stopped
        case failed(SystemCallError)
    }

    /// A pipe holding `bytes`, its write end closed. They must fit in the pipe's buffer (64 KiB
    /// by default, at least a page): an event's JSON line is well under a kilobyte; one that
    /// does not fit fails here (`EAGAIN`) instead of blocking the worker.
    public convenience init(holding bytes: [UInt8]) throws(SystemCallError) {
        try self.init(waits: false)
        defer { finish() }
        guard let fd = ends.withLock({ $0.write }) else { return }
        let written = try SystemCall.retrying { Glibc.write(fd, bytes, bytes.count) }
        guard written == bytes.count else { throw SystemCallError(errno: EAGAIN) }
    }

    /// A pipe to feed while the process lives (`write`, `stop`).
    public convenience init() throws(SystemCallError) {
        try self.init(waits: true)
    }

    private init(waits: Bool) throws(SystemCallError) {
        let pipe = try OutputPipe(nonBlockingWrites: true)
        let wake: OutputPipe?
        do throws(SystemCallError) {
            let flags = try SystemCall.retrying { fcntl(pipe.readEnd, F_GETFL) }
            try SystemCall.retrying { fcntl(pipe.readEnd, F_SETFL, flags & ~O_NONBLOCK) }
            wake = waits ? try OutputPipe(nonBlockingWrites: true) : nil
        } catch {
            pipe.closeReadEnd()
            pipe.closeWriteEnd()
            throw error
        }
        readEnd = pipe.readEnd
        ends = Mutex((pipe.writeEnd, pipe.readEnd))
        self.wake = wake
    }

    deinit {
        closeReadEnd()
        finish()
        wake?.closeReadEnd()
        wake?.closeWriteEnd()
    }

    /// Once the process has its copy (or could not start).
    public func closeReadEnd() { closeEnd(write: false) }

    /// Writes all of `bytes`, waiting while the pipe is full; throws when the process no longer
    /// reads (`EPIPE`), or `stopped` when `stop()` came first.
    public func write(_ bytes: [UInt8]) async throws(WriteError) {
        var offset = 0
        while offset < bytes.count {
            guard let fd = ends.withLock({ $0.write }) else { throw .stopped }
            do {
                offset += try SystemCall.retrying {
                    bytes.withUnsafeBytes { raw in Glibc.write(fd, raw.baseAddress.map { $0 + offset }, raw.count - offset) }
                }
            } catch  where error.wouldBlock {
                guard await writable(fd) else { throw .stopped }
            } catch {
                throw .failed(error)
            }
        }
    }

    /// Ends every wait for room, now and later (the process is gone, or the server closes).
    public func stop() { wake?.ring() }

    /// Closes the write end: the process reads the end of file. Idempotent.
    public func finish() { closeEnd(write: true) }

    /// Takes an end off the record and closes it, once.
    private func closeEnd(write: Bool) {
        let fd = ends.withLock { e -> Int32? in
            defer { if write { e.write = nil } else { e.read = nil } }
            return write ? e.write : e.read
        }
        if let fd { _ = close(fd) }
    }

    /// Waits on a thread of its own until `fd` takes bytes again (true) or `stop()` was called.
    private func writable(_ fd: Int32) async -> Bool {
        guard let wakeEnd = wake?.readEnd else { return false }
        return await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            let thread = SystemThread {
                var polled = [
                    pollfd(fd: fd, events: Int16(POLLOUT), revents: 0),
                    pollfd(fd: wakeEnd, events: Int16(POLLIN), revents: 0),
                ]
                while poll(&polled, 2, -1) < 0, errno == EINTR {}
                done.resume(returning: polled[1].revents == 0)
            }
            thread.name = "gp-pipe-input"
            thread.start()
        }
    }
}
