import GesturePadSystem
import Glibc

/// Writes byte buffers to a file descriptor, whole: the one place the uinput backend hands
/// Swift memory to the kernel. Does not own the descriptor.
struct FileDescriptorSink: Sendable {
    let fileDescriptor: Int32

    /// Writes all of `bytes`, retrying after EINTR and partial writes. Returns the errno of a
    /// failure (the rest is not written), nil on success.
    func write(_ bytes: [UInt8]) -> Int32? {
        bytes.withUnsafeBytes { buffer -> Int32? in
            guard let base = buffer.baseAddress else { return nil }
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fileDescriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }
}

/// `strerror` as a Swift string (`SystemCall.describe`).
func errorText(_ code: Int32) -> String {
    SystemCall.describe(code)
}
