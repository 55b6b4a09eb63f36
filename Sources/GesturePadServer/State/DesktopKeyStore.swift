import FoundationEssentials
import Glibc

/// The desktop page's key (`desktop-key` in the state directory, 0600): made at random the first
/// time the server starts, read back by `gesturepad open`, never sent beyond this computer and
/// never logged (docs/server.md "The desktop page").
public enum DesktopKeyStore {
    static let fileName = "desktop-key"

    /// The stored key, if there is a usable one (`gesturepad open`).
    public static func stored(in directory: StateDirectory) -> String? {
        guard let data = directory.read(fileName) else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingWhitespaceAndNewlines()
        return text.utf8.count == DeviceKey.length ? text : nil
    }

    /// The stored key, or a new one (stored) when there is none or it is unusable.
    public static func load(from directory: StateDirectory) throws(StateError) -> String {
        if let key = stored(in: directory) {
            chmod(directory.file(fileName), 0o600)
            return key
        }
        let key = DeviceKey.random()
        try directory.write(fileName, Data((key + "\n").utf8))
        return key
    }
}
