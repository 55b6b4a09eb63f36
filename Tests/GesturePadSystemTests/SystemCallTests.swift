import Glibc
import Testing

@testable import GesturePadSystem

/// `SystemCall.retrying`: a result passes through, EINTR is retried, any other errno is thrown
/// and described in the system's words.
@Suite struct SystemCallTests {
    /// A call interrupted twice by a signal is made again until it answers.
    @Test func retriesInterruptedCalls() throws {
        var calls = 0
        let result = try SystemCall.retrying { () -> Int32 in
            calls += 1
            guard calls > 2 else {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == 7 && calls == 3)
    }

    /// Another failure is thrown once, with its errno and strerror's text.
    @Test func throwsOtherFailures() {
        var calls = 0
        #expect(throws: SystemCallError(errno: ENOENT)) {
            try SystemCall.retrying { () -> Int32 in
                calls += 1
                return open("/nonexistent/gesturepad-\(calls)", O_RDONLY)
            }
        }
        #expect(calls == 1)
        #expect(SystemCallError(errno: ENOENT).description == "No such file or directory")
        #expect(SystemCall.describe(EACCES) == "Permission denied")
    }

    /// Reading an empty non-blocking pipe fails with `wouldBlock`; a missing file does not.
    @Test func tellsAWouldBlockFailureApart() throws {
        var ends: [Int32] = [-1, -1]
        try SystemCall.retrying { pipe(&ends) }
        defer {
            close(ends[0])
            close(ends[1])
        }
        let flags = try SystemCall.retrying { fcntl(ends[0], F_GETFL) }
        try SystemCall.retrying { fcntl(ends[0], F_SETFL, flags | O_NONBLOCK) }
        var byte: UInt8 = 0
        let empty = #expect(throws: SystemCallError.self) { try SystemCall.retrying { read(ends[0], &byte, 1) } }
        #expect(empty?.wouldBlock == true)
        #expect(!SystemCallError(errno: ENOENT).wouldBlock)
    }
}
