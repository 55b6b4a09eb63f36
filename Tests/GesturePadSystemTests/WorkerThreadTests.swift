import Dispatch
import Synchronization
import Testing

@testable import GesturePadSystem

/// The one worker thread: how it starts and ends, how it sleeps until a deadline on its clock,
/// and that no wake-up is lost while it ends. Waits are for events the thread signals (long
/// timeouts that only a broken worker reaches), never for a timer.
@Suite struct WorkerThreadTests {
    /// Answers to a test: `wait` blocks until the thread signalled, or fails after 30 s.
    private static func waited(_ semaphore: DispatchSemaphore) -> Bool {
        semaphore.wait(timeout: .now() + 30) == .success
    }

    /// Nothing runs before the first wake; a turn answering `.idle` ends the thread; the next
    /// wake starts a new one, which takes its turn; after `.exit`, `join` returns (every time)
    /// and wakes are ignored.
    @Test func startsOnWakeEndsWhenIdleAndForGoodOnExit() {
        let thread = WorkerThread(name: "gesturepad-test")
        let turns = Mutex(0)
        let ended = DispatchSemaphore(value: 0)
        thread.setTurn {
            let count = turns.withLock { n -> Int in
                n += 1
                return n
            }
            ended.signal()
            return count < 2 ? .idle : .exit
        }
        #expect(!thread.isRunning && turns.withLock { $0 } == 0)
        thread.wake()
        #expect(Self.waited(ended))
        while thread.isRunning {}  // the turn signalled; the thread ends right after
        #expect(turns.withLock { $0 } == 1 && !thread.join(timeout: 0))  // ended, not for good
        thread.wake()
        #expect(Self.waited(ended))
        #expect(thread.join(timeout: 30) && thread.join(timeout: 0))
        thread.wake()
        #expect(turns.withLock { $0 } == 2 && !thread.isRunning)
    }

    /// A wake before the turn is set is kept: setting the turn starts the thread.
    @Test func aWakeBeforeTheTurnIsKept() {
        let thread = WorkerThread(name: "gesturepad-test")
        thread.wake()
        let ran = DispatchSemaphore(value: 0)
        thread.setTurn {
            ran.signal()
            return .exit
        }
        #expect(Self.waited(ran))
    }

    /// A deadline the clock has reached needs no wake-up; one ahead of it waits until the
    /// clock is advanced and the thread woken, then the turn sees the new time.
    @Test func sleepsUntilTheDeadlineOnItsClock() {
        let clock = SteppedClock()
        let thread = WorkerThread(name: "gesturepad-test", clock: clock)
        let log = TurnLog(clock)
        let turned = log.turned
        thread.setTurn {
            switch log.note() {
            // The deadline is now: the next turn comes at once, without a wake-up.
            case 1: return .sleep(until: clock.at(0))
            // An hour ahead on this clock (a real wait of a minute at most).
            case 2: return .sleep(until: clock.at(3_600))
            default: return .exit
            }
        }
        thread.wake()
        #expect(Self.waited(turned) && Self.waited(turned))
        clock.set(3_600)
        thread.wake()
        #expect(Self.waited(turned))
        #expect(log.seen == [0, 0, 3_600])
    }

    /// A thread whose turns wait by themselves (the portal's and the notifier's `poll` beside
    /// an eventfd; here a semaphore of the test's): a `start()` before the turn is set is kept;
    /// a `start()` while a turn waits in its own wait starts no second thread (no two turns
    /// ever overlap) and does not end that wait — the turn's own wait is what wakes it; such a
    /// thread may still sleep on its clock and be woken; after `.exit` a start is ignored.
    @Test func aTurnThatWaitsByItself() {
        let clock = SteppedClock()
        let thread = WorkerThread(name: "gesturepad-test", clock: clock)
        let own = DispatchSemaphore(value: 0)
        let log = TurnLog(clock)
        let turned = log.turned
        let inTurn = Mutex((now: 0, most: 0))
        thread.start()
        thread.setTurn {
            inTurn.withLock { turns in
                turns.now += 1
                turns.most = max(turns.most, turns.now)
            }
            defer { inTurn.withLock { $0.now -= 1 } }
            switch log.note() {
            case 1, 2:
                _ = own.wait(timeout: .now() + 30)
                return .again
            case 3: return .sleep(until: clock.at(3_600))
            default: return .exit
            }
        }
        #expect(Self.waited(turned))
        for _ in 0..<3 { thread.start() }  // running, in its own wait: nothing happens
        #expect(thread.isRunning && log.seen.count == 1)
        own.signal()
        #expect(Self.waited(turned))
        thread.start()
        own.signal()
        #expect(Self.waited(turned))  // the third turn answers `.sleep` an hour ahead
        clock.set(3_600)
        thread.wake()
        #expect(Self.waited(turned))
        #expect(thread.join(timeout: 30))
        thread.start()
        #expect(!thread.isRunning && log.seen == [0, 0, 0, 3_600] && inTurn.withLock { $0.most } == 1)
    }

    /// The shape of a device loop (the host's `ActionWorker`): a mailbox whose wake-up is the
    /// thread's, state made on the thread at the first turn and kept there, a deadline of that
    /// state's, and the stop: what was posted before it is carried out, then the thread ends
    /// for good and `join` returns.
    @Test func carriesAMailboxOutUntilItsStop() {
        let clock = SteppedClock()
        let thread = WorkerThread(name: "gesturepad-test", clock: clock)
        let mailbox = WorkerMailbox<[Posted]>([]) { thread.wake() }
        let device = ThreadConfined<Device?>(nil)
        let log = Mutex<[String]>([])
        thread.setTurn {
            device.withValue { made in
                var device = made ?? Device()
                defer { made = device }
                if let due = device.due, clock.seconds >= due {
                    log.withLock { $0.append("timer at \(clock.seconds)") }
                    device.due = nil
                }
                let (posted, stopping) = mailbox.take { queue in
                    defer { queue.removeAll() }
                    return queue
                }
                for item in posted {
                    switch item {
                    case .value(let value):
                        log.withLock { $0.append("value \(value)") }
                        if value == 2 { device.due = 10 }
                    case .barrier(let done): done.signal()
                    }
                }
                guard !stopping else {
                    log.withLock { $0.append("closed") }
                    return .exit
                }
                return .sleep(until: device.due.map(clock.at))
            }
        }
        func barrier() -> Bool {
            let done = DispatchSemaphore(value: 0)
            return mailbox.post { $0.append(.barrier(done)) } && Self.waited(done)
        }
        mailbox.post { $0.append(.value(1)) }
        mailbox.post { $0.append(.value(2)) }
        #expect(barrier())
        clock.set(10)
        thread.wake()
        #expect(barrier())
        mailbox.post { $0.append(.value(3)) }
        mailbox.stop()
        #expect(thread.join(timeout: 30))
        #expect(!mailbox.post { $0.append(.value(4)) })
        #expect(log.withLock { $0 } == ["value 1", "value 2", "timer at 10.0", "value 3", "closed"])
    }

    /// Work that arrives while the last turn decides to end is not lost: the wake-up made
    /// during that turn gives it another turn, which finds the work.
    @Test func noWorkLostWhileEnding() {
        let thread = WorkerThread(name: "gesturepad-test")
        let queue = Mutex<[Int]>([])
        let done = Mutex<[Int]>([])
        let deciding = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let firstTurn = Mutex(true)
        thread.setTurn {
            let taken = queue.withLock { q -> [Int] in
                defer { q.removeAll() }
                return q
            }
            done.withLock { $0 += taken }
            if firstTurn.withLock({ f in
                defer { f = false }
                return f
            }) {
                // The queue looked empty; before answering `.idle`, work arrives.
                deciding.signal()
                _ = go.wait(timeout: .now() + 30)
                return .idle
            }
            finished.signal()
            return .exit
        }
        thread.wake()
        #expect(Self.waited(deciding))
        queue.withLock { $0.append(7) }
        thread.wake()  // the thread is running: this only marks it woken
        go.signal()
        #expect(Self.waited(finished))
        #expect(done.withLock { $0 } == [7])
    }
}

/// A clock that stands at a number of seconds after its origin until the test sets another.
private final class SteppedClock: WorkerClock {
    private let origin = 1_000_000.0
    private let offset = Mutex<Double>(0)

    var now: Double { at(seconds) }
    var seconds: Double { offset.withLock { $0 } }

    /// The clock's milliseconds `seconds` after its origin.
    func at(_ seconds: Double) -> Double { origin + seconds * 1_000 }
    func set(_ seconds: Double) { offset.withLock { $0 = seconds } }
}

/// The clock's time at each turn of a thread, and a semaphore signalled at each.
private final class TurnLog: Sendable {
    let turned = DispatchSemaphore(value: 0)
    private let clock: SteppedClock
    private let times = Mutex<[Double]>([])

    init(_ clock: SteppedClock) { self.clock = clock }

    /// The clock's time at each turn so far.
    var seen: [Double] { times.withLock { $0 } }

    /// Notes a turn (on the thread) and signals `turned`; returns its number (1 for the first).
    func note() -> Int {
        let count = times.withLock { t -> Int in
            t.append(clock.seconds)
            return t.count
        }
        turned.signal()
        return count
    }
}

/// What `carriesAMailboxOutUntilItsStop` posts: a value, or a semaphore signalled once what
/// came before it is carried out.
private enum Posted: Sendable {
    case value(Int)
    case barrier(DispatchSemaphore)
}

/// The thread-confined state of that loop: a timer it wants, in seconds of the clock.
private struct Device {
    var due: Double?
}
