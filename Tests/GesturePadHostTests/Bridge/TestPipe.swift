import Glibc

/// A pipe for the uinput tests: an executor writes `input_event`s into `writeEnd` as it would
/// into /dev/uinput; the test reads every byte back after closing the write end.
final class TestPipe {
    let readEnd: Int32
    private(set) var writeEnd: Int32

    init() {
        var ends: [Int32] = [-1, -1]
        let result = pipe(&ends)
        precondition(result == 0, "pipe() failed")
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        closeWriteEnd()
        close(readEnd)
    }

    func closeWriteEnd() {
        guard writeEnd >= 0 else { return }
        close(writeEnd)
        writeEnd = -1
    }

    /// Closes the write end and reads until end of file.
    func readAll() -> [UInt8] {
        closeWriteEnd()
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(readEnd, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return bytes
    }
}
