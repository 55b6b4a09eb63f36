import GesturePadSystem
import Glibc

/// Waits for a pipe to bring text or end, and for one more descriptor (the guard's X
/// connection) to become readable: the release guard's only loop, `poll` and `read` with
/// Swift memory, hence here in the bridge.
struct PipeWatch {
    enum Event: Equatable {
        /// Bytes read from the pipe, as text (invalid UTF-8 repaired; records are ASCII).
        case text(String)
        /// The other descriptor is readable (or broke): its owner reads it.
        case other
        /// The pipe's writer closed its end, or the pipe failed: what the guard waits for.
        case endOfInput
    }

    let input: Int32
    /// -1: none.
    let other: Int32
    private var buffer = [UInt8](repeating: 0, count: 4096)

    init(input: Int32, other: Int32) {
        self.input = input
        self.other = other
    }

    /// Blocks until something happens.
    mutating func next() -> Event {
        var fds = [pollfd(fd: input, events: Int16(POLLIN), revents: 0)]
        if other >= 0 { fds.append(pollfd(fd: other, events: Int16(POLLIN), revents: 0)) }
        while true {
            guard (try? SystemCall.retrying({ poll(&fds, nfds_t(fds.count), -1) })) != nil else { return .endOfInput }
            if fds[0].revents != 0 { return readInput() }
            if fds.count > 1, fds[1].revents != 0 { return .other }
        }
    }

    private mutating func readInput() -> Event {
        let descriptor = input
        let count = try? SystemCall.retrying { buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) } }
        guard let count, count > 0 else { return .endOfInput }
        return .text(String(decoding: buffer[..<count], as: UTF8.self))
    }
}
