import CLibWebSockets
import Glibc
import Synchronization

/// Turns SIGINT / SIGTERM / SIGHUP / SIGUSR1 into flags the service loop reads. The handler only sets
/// an atomic flag and wakes the loop with `lws_cancel_service` (thread- and signal-safe).
enum SignalRelay {
    /// Bits of `pending`.
    static let terminate = 1
    static let hangup = 2
    /// SIGUSR1: `gesturepad devices` changed `devices.json`.
    static let devicesChanged = 4

    fileprivate static let pending = Atomic<Int>(0)
    /// The lws context to wake, as a bit pattern (0: none).
    fileprivate static let contextBits = Atomic<Int>(0)

    /// Installs the handlers and remembers the context to wake.
    static func install(waking context: OpaquePointer) {
        contextBits.store(Int(bitPattern: UnsafeRawPointer(context)), ordering: .releasing)
        signal(SIGINT, relaySignal)
        signal(SIGTERM, relaySignal)
        signal(SIGHUP, relaySignal)
        signal(SIGUSR1, relaySignal)
    }

    /// Forgets the context (the loop is over). The handlers stay: a late signal during
    /// teardown is recorded and ignored instead of killing the process mid-flush.
    static func uninstall() {
        contextBits.store(0, ordering: .releasing)
    }

    /// Wakes the service loop from another thread (a control backend's status changed).
    static func wakeLoop() {
        if let context = OpaquePointer(bitPattern: contextBits.load(ordering: .acquiring)) {
            lws_cancel_service(context)
        }
    }

    /// The signals received since the last call.
    static func takePending() -> Int {
        pending.exchange(0, ordering: .acquiringAndReleasing)
    }
}

/// The signal handler: async-signal-safe work only.
private func relaySignal(_ signalNumber: Int32) {
    let bit =
        switch signalNumber {
        case SIGHUP: SignalRelay.hangup
        case SIGUSR1: SignalRelay.devicesChanged
        default: SignalRelay.terminate
        }
    SignalRelay.pending.bitwiseOr(bit, ordering: .acquiringAndReleasing)
    if let context = OpaquePointer(bitPattern: SignalRelay.contextBits.load(ordering: .acquiring)) {
        lws_cancel_service(context)
    }
}
