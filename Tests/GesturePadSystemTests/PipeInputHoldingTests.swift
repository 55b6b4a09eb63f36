import GesturePadSystem
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A run hook's stdin, filled before the process starts (`PipeInput(holding:)`): the reader gets
/// the bytes, then end of file, from a blocking descriptor; what does not fit fails at once.
@Suite struct PipeInputHoldingTests {
    /// Reads `fd` to its end.
    private func readAll(_ fd: Int32) -> [UInt8] {
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { return all }
            all += buffer[..<n]
        }
    }

    /// The payload comes out whole, then end of file (the write end is closed), and the read
    /// end blocks like any stdin.
    @Test func holdsThePayloadThenEndOfFile() throws {
        let payload = Array(#"{"type":"gesture","gesture":"tap"}"#.utf8) + [UInt8(ascii: "\n")]
        let pipe = try PipeInput(holding: payload)
        defer { pipe.closeReadEnd() }
        #expect(fcntl(pipe.readEnd, F_GETFL) & O_NONBLOCK == 0)
        #expect(fcntl(pipe.readEnd, F_GETFD) & FD_CLOEXEC != 0)
        #expect(readAll(pipe.readEnd) == payload)
    }

    /// A payload larger than the pipe's buffer fails with EAGAIN instead of blocking the worker.
    @Test func oversizedPayloadFails() throws {
        let tooBig = [UInt8](repeating: UInt8(ascii: "x"), count: 4 << 20)
        #expect(throws: SystemCallError(errno: EAGAIN)) { try PipeInput(holding: tooBig) }
    }
}
