import CSDBus
import GesturePadSystem
import Glibc

/// An eventfd that other threads write (a `WorkerMailbox`'s wake-up) to wake the portal
/// backend's or the desktop notifier's thread out of `poll`, and the `poll` itself (on the
/// bus descriptor and this one): the wait of those `WorkerThread`s' turns. Owns the
/// descriptor.
final class EventWakeup: Sendable {
    let fileDescriptor: Int32

    init() throws {
        do throws(SystemCallError) {
            fileDescriptor = try SystemCall.retrying { eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK)) }
        } catch {
            throw ControlBackendError.system("cannot create an eventfd: \(error)")
        }
    }

    deinit { Glibc.close(fileDescriptor) }

    /// Wakes the waiting thread (from any thread; never blocks).
    func signal() {
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { Glibc.write(fileDescriptor, $0.baseAddress, 8) }
    }

    /// Consumes the pending wake-ups.
    func drain() {
        var count: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &count) { Glibc.read(fileDescriptor, $0.baseAddress, 8) }
    }

    /// Waits until this is signalled, the bus descriptor has `events`, `watched` is readable
    /// (or broke), or `timeout` ms pass (-1: no limit). Returns whether `watched` is ready.
    @discardableResult
    func wait(bus: (fileDescriptor: Int32, events: Int16)?, watched: Int32? = nil, timeoutMilliseconds timeout: Int32)
        -> Bool
    {
        var descriptors = [pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)]
        if let bus { descriptors.append(pollfd(fd: bus.fileDescriptor, events: bus.events, revents: 0)) }
        if let watched, watched >= 0 { descriptors.append(pollfd(fd: watched, events: Int16(POLLIN), revents: 0)) }
        guard poll(&descriptors, nfds_t(descriptors.count), timeout) > 0, let watched, watched >= 0 else { return false }
        return descriptors.last.map { $0.fd == watched && $0.revents != 0 } ?? false
    }
}
