import Dispatch
import Foundation
import Synchronization
import Testing

@testable import GesturePadServer

/// The server's state-file thread, on a real `devices.json` in a temporary folder: what it
/// does with the requests queued before it runs (a newer save replaces an older one), the
/// conditional write, the stop (it drains, then ends), and the wake-ups of the service loop.
/// Waits are for what the thread signals (long timeouts only a broken keeper reaches).
@Suite struct StateKeeperTests {
    private static func temporaryStore() -> DeviceStore {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gp-keeper-\(UUID().uuidString)")
        return DeviceStore(directory: StateDirectory(path: folder.path + "/gesturepad"))
    }

    private static func list(_ names: String...) -> DeviceList {
        DeviceList(devices: names.map { PairedDevice(id: $0, name: $0, state: .paired, paired: "t") })
    }

    /// Requests made before `start` wait for it; the stop carries them out before the thread
    /// ends: only the newer of two saves is written, only the latest presence published, and
    /// the service loop is woken once for what came back.
    @Test func aNewerSaveReplacesOneNotYetStarted() {
        let store = Self.temporaryStore()
        let published = Mutex<[DevicePresence]>([])
        let wakes = Mutex(0)
        let keeper = StateKeeper(
            store: store, presence: { presence in published.withLock { $0.append(presence) } },
            wake: { wakes.withLock { $0 += 1 } })
        keeper.save(Self.list("a"), basedOn: nil)
        keeper.publish(DevicePresence(connected: ["a"], reloads: 0))
        keeper.save(Self.list("a", "b"), basedOn: nil)
        keeper.publish(DevicePresence(connected: ["a", "b"], reloads: 1))
        #expect(store.read() == .missing && wakes.withLock { $0 } == 0)
        keeper.start()
        #expect(keeper.stop())
        let outcomes = keeper.take()
        guard outcomes.count == 1, case .saved(let saved, let version) = outcomes[0] else {
            Issue.record("expected one save, got \(outcomes)")
            return
        }
        #expect(saved == Self.list("a", "b") && version != nil && version == store.version())
        #expect(store.read() == .list(Self.list("a", "b")))
        #expect(published.withLock { $0 } == [DevicePresence(connected: ["a", "b"], reloads: 1)])
        #expect(wakes.withLock { $0 } == 1 && keeper.take().isEmpty)
    }

    /// A save based on a version the file is no longer at writes nothing: the file comes back
    /// as it is (not requested), then the requested read; after the stop nothing more is done.
    @Test func aStaleSaveReadsTheFileBack() throws {
        let store = Self.temporaryStore()
        try store.update { $0 = Self.list("theirs") }
        let keeper = StateKeeper(store: store, presence: nil, wake: {})
        keeper.start()
        keeper.save(Self.list("mine"), basedOn: nil)
        keeper.read()
        #expect(keeper.stop() && keeper.stop())
        keeper.save(Self.list("late"), basedOn: store.version())
        let outcomes = keeper.take()
        guard outcomes.count == 2, case .read(let first, let version, false) = outcomes[0],
            case .read(let second, _, true) = outcomes[1]
        else {
            Issue.record("expected the file read back twice, got \(outcomes)")
            return
        }
        #expect(first == .list(Self.list("theirs")) && second == first && version == store.version())
        #expect(store.read() == .list(Self.list("theirs")) && keeper.take().isEmpty)
    }

    /// While it runs, each outcome the service thread has not yet seen wakes it: a save's, then
    /// (after the take) a read's.
    @Test func wakesTheServiceLoopForWhatComesBack() {
        let store = Self.temporaryStore()
        let woken = DispatchSemaphore(value: 0)
        let keeper = StateKeeper(store: store, presence: nil, wake: { woken.signal() })
        keeper.start()
        keeper.save(Self.list("a"), basedOn: nil)
        #expect(woken.wait(timeout: .now() + 30) == .success)
        guard case .saved? = keeper.take().first else {
            Issue.record("expected the save")
            return
        }
        keeper.read()
        #expect(woken.wait(timeout: .now() + 30) == .success)
        guard case .read(.list(let read), _, true)? = keeper.take().first else {
            Issue.record("expected the read")
            return
        }
        #expect(read == Self.list("a") && keeper.stop())
    }

    /// A keeper never started has no thread to stop.
    @Test func aStopBeforeTheStartReturnsAtOnce() {
        let keeper = StateKeeper(store: Self.temporaryStore(), presence: nil, wake: {})
        keeper.save(Self.list("a"), basedOn: nil)
        #expect(keeper.stop(timeout: 0) && keeper.take().isEmpty)
    }
}
