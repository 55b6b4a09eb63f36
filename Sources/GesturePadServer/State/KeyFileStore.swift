import FoundationEssentials
import Glibc

/// The server's own keys in the state directory (0600 each): made at random the first time the
/// server starts, never sent beyond this computer and never logged — 256 bits each, written as
/// 43 base64url characters.
public enum KeyFileStore {
    /// One key file.
    public enum File: String, Sendable {
        /// The desktop page's key, read back by `gesturepad open` (docs/server.md "The desktop page").
        case desktop = "desktop-key"
        /// The private half of the server's X25519 identity key: phones pin its public half
        /// when they pair, and the server proves it on every later connection (docs/protocol.md
        /// "Device key pairs"). Any 32 random bytes are such a key.
        case identity = "identity-key"
    }

    /// The stored key, if there is a usable one (`gesturepad open`).
    public static func stored(_ file: File, in directory: StateDirectory) -> String? {
        guard let data = directory.read(file.rawValue) else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingWhitespaceAndNewlines()
        return DeviceKey.isWellFormed(text) ? text : nil
    }

    /// The stored key, or a new one (stored) when there is none or it is unusable.
    public static func load(_ file: File, from directory: StateDirectory) throws(StateError) -> String {
        if let key = stored(file, in: directory) {
            chmod(directory.file(file.rawValue), 0o600)
            return key
        }
        let key = DeviceKey.random()
        try directory.write(file.rawValue, Data((key + "\n").utf8))
        return key
    }
}
