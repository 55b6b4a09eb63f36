import Glibc
import Testing

@testable import GesturePadSystem

/// `FileIO`: whole files written 0600 and read back, reads in chunks, errors as errno.
@Suite struct FileIOTests {
    private func temporaryPath(_ name: String) -> String {
        "/tmp/gesturepad-fileio-\(getpid())-\(name)"
    }

    /// A file written (larger than one read) comes back byte for byte, and is 0600.
    @Test func writesAndReadsWholeFiles() throws {
        let path = temporaryPath("whole")
        defer { unlink(path) }
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        try FileIO.writeFile(path, bytes)
        #expect(try FileIO.readFile(path) == bytes)
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        try FileIO.writeFile(path, [1, 2, 3])  // truncates
        #expect(try FileIO.readFile(path) == [1, 2, 3])
    }

    /// A missing file is the system's ENOENT.
    @Test func missingFile() {
        #expect(throws: SystemCallError(errno: ENOENT)) { try FileIO.readFile("/nonexistent/gesturepad") }
        #expect(SystemCall.describe(SystemCallError(errno: ENOENT) as any Error) == "No such file or directory")
    }

    /// `read(upTo:from:)` returns what a pipe holds, then empty at its end.
    @Test func readsChunksUntilTheEnd() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        try FileIO.write(Array("hello".utf8), to: ends[1])
        close(ends[1])
        #expect(FileIO.read(upTo: 3, from: ends[0]) == Array("hel".utf8))
        #expect(FileIO.read(upTo: 64, from: ends[0]) == Array("lo".utf8))
        #expect(FileIO.read(upTo: 64, from: ends[0]).isEmpty)
        close(ends[0])
    }
}

/// Trimming and case-blind comparison as Foundation did them.
@Suite struct StringWhitespaceTests {
    @Test func trims() {
        #expect(" \t a b \u{3000}".trimmingWhitespace() == "a b")
        #expect(" a\n".trimmingWhitespace() == "a\n")
        #expect("\r\n a b\u{2028}\n ".trimmingWhitespaceAndNewlines() == "a b")
        #expect(" \n ".trimmingWhitespaceAndNewlines() == "")
    }

    @Test func comparesIgnoringCase() {
        #expect("Pixel 8".equalsIgnoringCase("pIXEL 8"))
        #expect("Straße".equalsIgnoringCase("STRASSE"))
        #expect(!"Pixel 8".equalsIgnoringCase("Pixel 9"))
    }
}
