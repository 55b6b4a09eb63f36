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

    /// A name is cut to the kernel's 15 bytes before a character that would not fit whole, so a
    /// hook's rule name in another script never shows as a broken byte in `top -H`.
    @Test func namesAreCutAtACharacter() {
        #expect(SystemThread.systemName("gpr-notify-swipe-left") == "gpr-notify-swip")
        #expect(SystemThread.systemName("gpp-äöüäöü") == "gpp-äöüäö")  // 4 + 5 × 2 bytes; a sixth would be 16
        #expect(SystemThread.systemName("gpr-🖐🖐🖐") == "gpr-🖐🖐")  // 4 + 2 × 4; a third would be 16
        #expect(SystemThread.systemName("gp-x11") == "gp-x11")
        #expect(SystemThread.systemName("") == "")
    }
}

extension FileIO {
    fileprivate static func readFileText(_ path: String) -> String {
        String(decoding: (try? readFile(path)) ?? [], as: UTF8.self)
    }
}
