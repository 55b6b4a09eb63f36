import GestureControl
import Logging
import Testing

@testable import GesturePadHost

@Suite struct ActionWorkerTests {
    private let logger = Logger(label: "test.worker")

    private func makeWorker(_ log: CallLog, capacity: Int = 64) throws -> ActionWorker<RecordingExecutor> {
        try ActionWorker(name: "test-worker", capacity: capacity, logger: logger) { RecordingExecutor(log: log) }
    }

    /// Actions from several calls are carried out in order, each batch flushed.
    @Test func carriesOutInOrderAndFlushes() throws {
        let log = CallLog()
        let worker = try makeWorker(log)
        let first: [HostAction] = [.motion(dx: 1, dy: 2), .button(.left, .down)]
        let second: [HostAction] = [.button(.left, .up), .text("hi"), .wheel(dx: 0, dy: 1)]
        worker.perform(first[...])
        worker.perform(second[1...])
        worker.perform(second[..<1])
        #expect(worker.waitUntilDone())
        #expect(log.actions == first + [.text("hi"), .wheel(dx: 0, dy: 1), .button(.left, .up)])
        #expect(log.all.last == .flush)
        worker.stop()
    }

    /// releaseAll comes after the actions queued before it, before those queued after.
    @Test func releaseAllKeepsItsPlace() throws {
        let log = CallLog()
        let worker = try makeWorker(log)
        worker.perform([.key(.named(.shift), .down)][...])
        worker.releaseAll()
        worker.perform([.motion(dx: 5, dy: 0)][...])
        #expect(worker.waitUntilDone())
        let calls = log.all.filter { $0 != .flush }
        #expect(calls == [.execute(.key(.named(.shift), .down)), .releaseAll, .execute(.motion(dx: 5, dy: 0))])
        worker.stop()
    }

    /// stop carries out what is queued, then closes (which releases), and later calls do nothing.
    @Test func stopDrainsThenCloses() throws {
        let log = CallLog()
        let worker = try makeWorker(log)
        worker.perform([.button(.right, .down), .motion(dx: 1, dy: 1)][...])
        worker.stop()
        #expect(log.actions == [.button(.right, .down), .motion(dx: 1, dy: 1)])
        #expect(log.all.last == .close)
        worker.perform([.motion(dx: 9, dy: 9)][...])
        worker.releaseAll()
        worker.stop()
        #expect(!worker.waitUntilDone(timeout: 0.1))
        #expect(log.all.filter { $0 == .close }.count == 1)
        #expect(log.actions.count == 2)
    }

    /// A stalled device makes the queue shed motion, but a button release still arrives.
    @Test func fullQueueDropsMotionButNotReleases() throws {
        let blocker = HostAction.motion(dx: 0, dy: 99)
        let log = CallLog(blockingOn: blocker)
        let worker = try makeWorker(log, capacity: 4)
        worker.perform([blocker][...])
        #expect(log.waitUntilBlocked())
        worker.perform([.button(.left, .down)][...])
        for x in 1...10 { worker.perform([.motion(dx: x, dy: 0)][...]) }
        worker.perform([.button(.left, .up)][...])
        #expect(worker.droppedActions == 7)
        log.open()
        #expect(worker.waitUntilDone())
        #expect(
            log.actions == [
                blocker, .button(.left, .down), .motion(dx: 1, dy: 0), .motion(dx: 2, dy: 0),
                .motion(dx: 3, dy: 0), .button(.left, .up),
            ])
        worker.stop()
    }

    /// An executor that cannot be made fails the worker's start with its error.
    @Test func startupErrorIsThrown() {
        #expect(throws: ControlBackendError.uinput("no device")) {
            _ = try ActionWorker<RecordingExecutor>(name: "test-failing", logger: logger) {
                throw ControlBackendError.uinput("no device")
            }
        }
    }
}
