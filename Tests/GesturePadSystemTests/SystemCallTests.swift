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
}
