import Glibc
import Synchronization
import Testing

@testable import GesturePadSystem

/// `SystemThread`: a detached thread of its own that runs its closure once, under its name.
@Suite struct SystemThreadTests {
    /// The closure runs on another thread, which the kernel knows by the (cut) name.
    @Test func runsOnANamedThread() async {
        let seen = Mutex<(ran: Bool, comm: String, sameThread: Bool)?>(nil)
        let caller = pthread_self()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let thread = SystemThread {
                let comm = FileIO.readFileText("/proc/thread-self/comm")
                seen.withLock { $0 = (true, comm, pthread_equal(pthread_self(), caller) != 0) }
                done.resume()
            }
            thread.name = "gesturepad-a-long-thread-name"
            thread.start()
        }
        let result = seen.withLock { $0 }
        #expect(result?.ran == true && result?.sameThread == false)
        #expect(result?.comm == "gesturepad-a-lo\n")
    }
}

extension FileIO {
    fileprivate static func readFileText(_ path: String) -> String {
        String(decoding: (try? readFile(path)) ?? [], as: UTF8.self)
    }
}
