import Testing

@testable import GesturePadSinks

/// The sinks' executor's timers (`WorkerExecutor.sleep(until:)`) on a manual clock.
@Suite struct WorkerExecutorTests {
    /// A sleep whose task is cancelled before it registers throws at once; one that fires
    /// returns; neither leaves anything behind in the thread's tables.
    @Test func sleepsLeaveNothingBehind() async throws {
        let clock = ManualClock()
        let thread = WorkerExecutor(name: "gesturepad-test-sleeps", clock: clock)
        defer { thread.stop() }
        let cancelled = Task(executorPreference: thread) { () async throws -> Void in
            withUnsafeCurrentTask { $0?.cancel() }
            try await thread.sleep(until: clock.at(1))
        }
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(thread.pendingSleeps == 0)
        let fires = Task(executorPreference: thread) { try await thread.sleep(until: clock.at(1)) }
        while thread.pendingSleeps == 0 { await Task.yield() }
        clock.advance(to: 2)
        thread.poke()
        try await fires.value
        fires.cancel()
        #expect(thread.pendingSleeps == 0)
    }
}
