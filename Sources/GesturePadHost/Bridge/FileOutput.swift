import GesturePadSystem
import Glibc

/// A file opened for writing in place of a uinput device: `serve --test-touchpad-output`
/// (a benchmark reads the touchpad's events from a FIFO on a machine without /dev/uinput).
/// Owns the descriptor.
final class FileOutput: InputDeviceOutput {
    let fileDescriptor: Int32
    private var isOpen = true

    /// Opens `path` write-only (a FIFO: waits for its reader). Errors are one line.
    init(path: String) throws {
        do throws(SystemCallError) {
            fileDescriptor = try SystemCall.retrying { open(path, O_WRONLY | O_CLOEXEC) }
        } catch {
            throw ControlBackendError("cannot open \(path): \(error)")
        }
    }

    deinit { destroy() }

    func destroy() {
        guard isOpen else { return }
        isOpen = false
        Glibc.close(fileDescriptor)
    }
}
