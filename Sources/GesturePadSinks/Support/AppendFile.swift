import FoundationEssentials
import GesturePadSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file opened with `O_APPEND | O_CREAT | O_CLOEXEC` (never inherited by hook processes),
/// written with plain `write(2)` calls: no user-space buffer, so each write is visible at once.
struct AppendFile: Sendable {
    let descriptor: Int32
    private var owned = true

    /// Opens `path` for appending, creating it with `mode` if missing; `exclusive`: the file
    /// must not exist yet (`O_EXCL`).
    init(path: String, mode: mode_t = 0o644, exclusive: Bool = false) throws(AppendFileError) {
        let flags = O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | (exclusive ? O_EXCL : 0)
        do {
            descriptor = try SystemCall.retrying { open(path, flags, mode) }
        } catch {
            throw AppendFileError(path: path, errno: error.errno)
        }
    }

    /// An already open descriptor (standard output), not owned: `close()` leaves it open.
    init(borrowing descriptor: Int32) {
        self.descriptor = descriptor
        owned = false
    }

    /// Writes all bytes, retrying short writes and EINTR; `false` on an error.
    func write(_ bytes: [UInt8]) -> Bool {
        var pending = bytes
        while !pending.isEmpty {
            guard let n = try? SystemCall.retrying({ Self.systemWrite(descriptor, pending, pending.count) }) else {
                return false
            }
            // A short write (rare on a regular file): keep the rest.
            pending = n < pending.count ? Array(pending[n...]) : []
        }
        return true
    }

    func close() {
        guard owned else { return }
        _ = Self.systemClose(descriptor)
    }

    #if canImport(Glibc)
        private static let systemWrite = Glibc.write
        private static let systemClose = Glibc.close
    #else
        private static let systemWrite = Darwin.write
        private static let systemClose = Darwin.close
    #endif
}

/// `open(2)` failed.
struct AppendFileError: Error, CustomStringConvertible {
    let path: String
    let errno: Int32
    var description: String { "cannot open \(path): \(SystemCall.describe(errno))" }
}
