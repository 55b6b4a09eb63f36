import GesturePadSystem
import Glibc

/// A file opened for writing in place of a uinput device: `serve --test-touchpad-output`
/// (a benchmark reads the touchpad's events from a FIFO on a machine without /dev/uinput).
/// Owns the descriptor.
///
/// It behaves as the kernel does for a uinput device: each event is stamped with the
/// monotonic clock as it is written (the time evdev gives libinput, so a reader measures when
/// the events went out, not when it got round to reading them), and a write never waits — a
/// reader that falls behind loses events (`EAGAIN`, counted by the executor), never the
/// writer's thread.
final class FileOutput: InputDeviceOutput {
    let fileDescriptor: Int32
    private var isOpen = true

    /// Opens `path` write-only (a FIFO: waits for its reader), then makes its writes never
    /// wait. Errors are one line.
    init(path: String) throws {
        do throws(SystemCallError) {
            fileDescriptor = try SystemCall.retrying { open(path, O_WRONLY | O_CLOEXEC) }
            let flags = try SystemCall.retrying { fcntl(fileDescriptor, F_GETFL) }
            _ = try SystemCall.retrying { fcntl(fileDescriptor, F_SETFL, flags | O_NONBLOCK) }
        } catch {
            throw ControlBackendError.system("cannot open \(path): \(error)")
        }
    }

    deinit { destroy() }

    func write(_ bytes: inout [UInt8]) -> Int32? {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let microseconds = Int64(now.tv_nsec / 1_000)
        bytes.withUnsafeMutableBytes { buffer in
            for start in stride(from: 0, through: buffer.count - InputEvent.byteCount, by: InputEvent.byteCount) {
                buffer.storeBytes(of: Int64(now.tv_sec), toByteOffset: start, as: Int64.self)
                buffer.storeBytes(of: microseconds, toByteOffset: start + 8, as: Int64.self)
            }
        }
        return FileDescriptorSink(fileDescriptor: fileDescriptor).write(bytes)
    }

    func destroy() {
        guard isOpen else { return }
        isOpen = false
        Glibc.close(fileDescriptor)
    }
}
