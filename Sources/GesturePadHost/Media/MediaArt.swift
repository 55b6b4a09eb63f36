import FoundationEssentials
import GestureControl
import GesturePadSystem
import Glibc

/// A track's cover as the pages get it (docs/protocol.md "Media"): read from the player's
/// `mpris:artUrl` when that is a local file or a `data:` URL, as a `data:` URL of its own, named
/// by a digest of its bytes. Nothing else is fetched: no network, no file that is not an image.
enum MediaArt {
    /// The largest cover sent (it crosses the Wi-Fi once per cover and page).
    static let maxBytes = 512 * 1024

    /// The cover `url` names, or nil when it is not one that can be sent.
    static func read(_ url: String) -> MediaSnapshot.Art? {
        if url.hasPrefix("data:image/") {
            guard url.utf8.count <= maxBytes * 4 / 3 + 64 else { return nil }
            return MediaSnapshot.Art(key: digest(Array(url.utf8)), dataURL: url)
        }
        guard url.hasPrefix("file://"), let path = URL(string: url)?.path(percentEncoded: false), !path.isEmpty else {
            return nil
        }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0,
            status.st_size <= maxBytes, let bytes = try? FileIO.readFile(path), let type = imageType(bytes)
        else { return nil }
        return MediaSnapshot.Art(
            key: digest(bytes), dataURL: "data:\(type);base64," + Data(bytes).base64EncodedString())
    }

    /// The MIME type of an image by its first bytes: PNG, JPEG, GIF or WebP; nil for anything else.
    static func imageType(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if bytes.starts(with: Array("GIF8".utf8)) { return "image/gif" }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return "image/webp"
        }
        return nil
    }

    /// FNV-1a (64 bits) of `bytes` as 16 hex digits: a name for a cover, not a secret.
    static func digest(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
