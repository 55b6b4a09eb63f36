import GesturePadSystem
import Glibc

/// Writes byte buffers to a file descriptor, whole: the one place the uinput backend hands
/// Swift memory to the kernel. Does not own the descriptor.
struct FileDescriptorSink: Sendable {
    let fileDescriptor: Int32

    /// Writes all of `bytes`, after partial writes and interruptions (`SystemCall.retrying`).
    /// Returns the errno of a failure (the rest is not written), nil on success.
    func write(_ bytes: [UInt8]) -> Int32? {
        bytes.withUnsafeBytes { buffer -> Int32? in
            guard let base = buffer.baseAddress else { return nil }
            var offset = 0
            while offset < buffer.count {
                do throws(SystemCallError) {
                    offset += try SystemCall.retrying { Glibc.write(fileDescriptor, base + offset, buffer.count - offset) }
                } catch {
                    return error.errno
                }
            }
            return nil
        }
    }
}

/// `strerror` as a Swift string (`SystemCall.describe`).
func errorText(_ code: Int32) -> String {
    SystemCall.describe(code)
}
