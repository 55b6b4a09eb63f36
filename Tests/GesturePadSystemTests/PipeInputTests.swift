import GesturePadSystem
import Glibc
import Testing


/// `PipeInput`, a pipe hook's stdin: a full pipe is waited out off the caller's thread, and
/// `stop()` ends that wait; the process's end sees a blocking stdin.
@Suite struct PipeInputTests {
    /// Far more than a pipe holds (64 KiB): the write waits for the reader, then completes.
    @Test func aFullPipeWaitsForTheReader() async throws {
        let input = try PipeInput()
        #expect(fcntl(input.readEnd, F_GETFL) & O_NONBLOCK == 0)
        let bytes = [UInt8](repeating: 7, count: 300_000)
        let reader = Task.detached { () -> Int in
            var total = 0
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = read(input.readEnd, &buffer, buffer.count)
                guard n > 0 else { return total }
                total += n
            }
        }
        try await input.write(bytes)
        input.finish()
        #expect(await reader.value == bytes.count)
    }

    /// Nobody reads: the write waits until `stop()`, then says it was stopped; nothing blocks.
    @Test func stopEndsAWaitForRoom() async throws {
        let input = try PipeInput()
        let writer = Task.detached { () -> String in
            do throws(PipeInput.WriteError) {
                try await input.write([UInt8](repeating: 1, count: 200_000))
                return "written"
            } catch {
                if case .stopped = error { return "stopped" }
                return "failed"
            }
        }
        // The pipe holds 64 KiB: the writer is waiting for room now, or will be.
        input.stop()
        #expect(await writer.value == "stopped")
        // After a stop, a write that needs room fails at once.
        await #expect(throws: PipeInput.WriteError.self) { try await input.write([UInt8](repeating: 1, count: 200_000)) }
    }

    /// The reader went away: the write fails (EPIPE) instead of waiting.
    @Test func aGoneReaderFailsTheWrite() async throws {
        BrokenPipes.ignore()  // as `serve` does: the write fails instead of killing the process
        let input = try PipeInput()
        input.closeReadEnd()
        do throws(PipeInput.WriteError) {
            try await input.write([1, 2, 3])
            Issue.record("expected EPIPE")
        } catch {
            guard case .failed(let failure) = error else {
                Issue.record("expected EPIPE, got \(error)")
                return
            }
            #expect(failure.errno == EPIPE)
        }
    }
}
