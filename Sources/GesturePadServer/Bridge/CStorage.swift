import CLibWebSockets
import Glibc

/// Owns every C object handed to `lws_create_context` / `lws_create_vhost`: lws keeps the
/// pointers (protocols, mounts, mime types, retry policy, strings) for the context's whole
/// life, so they are allocated once here and freed only after the context is destroyed.
final class CStorage {
    private var strings: [UnsafeMutablePointer<CChar>] = []
    private var blocks: [UnsafeMutableRawPointer] = []

    /// A C copy of `text` that lives as long as this storage.
    func string(_ text: String) -> UnsafePointer<CChar>? {
        guard let copy = strdup(text) else { return nil }
        strings.append(copy)
        return UnsafePointer(copy)
    }

    /// `count` zeroed values of `T` that live as long as this storage.
    func zeroed<T>(_ type: T.Type, count: Int = 1) -> UnsafeMutablePointer<T> {
        let size = MemoryLayout<T>.stride * count
        let raw = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<T>.alignment)
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        blocks.append(raw)
        return raw.bindMemory(to: T.self, capacity: count)
    }

    deinit {
        for string in strings { free(string) }
        for block in blocks { block.deallocate() }
    }
}
