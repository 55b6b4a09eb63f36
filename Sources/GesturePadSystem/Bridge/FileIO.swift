#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whole writes and chunked reads on file descriptors (what Foundation's `FileHandle` did for
/// the CLI and the state folder; it is not in FoundationEssentials).
public enum FileIO {
    /// Writes all of `bytes` to `descriptor`, again after a signal or a short write.
    public static func write(_ bytes: some Sequence<UInt8>, to descriptor: Int32) throws(SystemCallError) {
        let buffer = Array(bytes)
        let failure: SystemCallError? = buffer.withUnsafeBytes { raw in
            var written = 0
            while written < raw.count {
                do throws(SystemCallError) {
                    written += try SystemCall.retrying {
                        Glibc.write(descriptor, raw.baseAddress.map { $0 + written }, raw.count - written)
                    }
                } catch {
                    return error
                }
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// Text to standard error; a failed write (a closed stream) is dropped.
    public static func writeStandardError(_ text: String) {
        try? write(text.utf8, to: STDERR_FILENO)
    }

    /// Bytes to standard output; a failed write (a closed stream) is dropped.
    public static func writeStandardOutput(_ bytes: some Sequence<UInt8>) {
        try? write(bytes, to: STDOUT_FILENO)
    }

    /// Up to `count` bytes from `descriptor`; empty at the end of the file or on an error.
    public static func read(upTo count: Int, from descriptor: Int32) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = (try? SystemCall.retrying { Glibc.read(descriptor, buffer.baseAddress, count) }) ?? 0
        }
    }

    /// The bytes of the file at `path`.
    public static func readFile(_ path: String) throws(SystemCallError) -> [UInt8] {
        let descriptor = try SystemCall.retrying { open(path, O_RDONLY | O_CLOEXEC) }
        defer { close(descriptor) }
        return try readToEnd(descriptor, limit: .max) ?? []
    }

    /// The bytes from `descriptor` to its end; nil when there are more than `limit`.
    public static func readToEnd(_ descriptor: Int32, limit: Int) throws(SystemCallError) -> [UInt8]? {
        var bytes: [UInt8] = []
        while bytes.count <= limit {
            var failure: SystemCallError?
            let chunk = [UInt8](unsafeUninitializedCapacity: 1 << 16) { buffer, initialized in
                do throws(SystemCallError) {
                    initialized = try SystemCall.retrying { Glibc.read(descriptor, buffer.baseAddress, buffer.count) }
                } catch {
                    failure = error
                    initialized = 0
                }
            }
            if let failure { throw failure }
            if chunk.isEmpty { return bytes }
            bytes += chunk
        }
        return nil
    }

    /// `contents` as the file at `path` (created 0600 or truncated), flushed to the disk.
    public static func writeFile(_ path: String, _ contents: some Sequence<UInt8>) throws(SystemCallError) {
        let descriptor = try SystemCall.retrying { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) }
        do {
            try write(contents, to: descriptor)
            try SystemCall.retrying { fsync(descriptor) }
        } catch {
            close(descriptor)
            throw error
        }
        try SystemCall.retrying { close(descriptor) }
    }
}
