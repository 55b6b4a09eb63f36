import GesturePadSystem
import Glibc

/// Whether this process may use `/dev/uinput`, asked before choosing a backend.
public enum UInputAccess {
    /// Where the kernel's uinput device lives.
    public static let defaultPath = "/dev/uinput"

    /// True when `path` exists and this user may write it (`access(W_OK)`: real uid and gid,
    /// as the udev rule in docs/control.md grants).
    public static func isWritable(path: String = defaultPath) -> Bool {
        (try? SystemCall.retrying { access(path, W_OK) }) != nil
    }
}
