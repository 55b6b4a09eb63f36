import FoundationEssentials
import GesturePadSystem
import Glibc

/// `devices.json` in the state directory, shared by the running server and `gesturepad
/// devices`: every change is a read-modify-write under an exclusive `flock` on `devices.lock`
/// (the data file itself is replaced by a rename, so it cannot carry the lock), written 0600
/// and atomically. A reader without the lock always sees a whole file.
public struct DeviceStore: Sendable {
    public static let lockName = "devices.lock"

    public let directory: StateDirectory

    public init(directory: StateDirectory) {
        self.directory = directory
    }

    /// What the file holds.
    public enum Contents: Sendable, Hashable {
        /// No file: no device was ever paired (or the folder was cleared).
        case missing
        case list(DeviceList)
        /// A file that is not a device list (edited by hand and broken): left alone by readers.
        case unreadable
    }

    /// How many devices the file holds paired now (0 when it cannot be read).
    public func pairedCount() -> Int {
        guard case .list(let list) = read() else { return 0 }
        return list.devices.count { $0.state == .paired }
    }

    /// The file's contents now.
    public func read() -> Contents {
        guard let data = directory.read(DeviceList.fileName) else { return .missing }
        return DeviceList.decode(data).map(Contents.list) ?? .unreadable
    }

    /// Writes `list` (0600, atomically).
    public func write(_ list: DeviceList) throws(StateError) {
        try directory.write(DeviceList.fileName, list.encoded())
    }

    /// Runs `body` holding the lock (waits for another holder). Throws when the lock file
    /// cannot be made.
    public func withLock<T>(_ body: () throws -> T) throws -> T {
        try directory.ensure()
        let path = directory.file(Self.lockName)
        let descriptor: Int32
        do {
            descriptor = try SystemCall.retrying { open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600) }
        } catch {
            throw StateError("cannot open \(path): \(error)")
        }
        defer { close(descriptor) }
        do {
            try SystemCall.retrying { flock(descriptor, LOCK_EX) }
        } catch {
            throw StateError("cannot lock \(path): \(error)")
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// The list read under the lock, changed by `change`, written back when it changed. A
    /// missing file is an empty list; an unreadable one is an error (nothing is overwritten).
    @discardableResult
    public func update<T>(_ change: (inout DeviceList) throws -> T) throws -> T {
        try withLock {
            var list: DeviceList
            switch read() {
            case .missing: list = DeviceList()
            case .list(let stored): list = stored
            case .unreadable:
                throw StateError("\(directory.file(DeviceList.fileName)) is not a device list; fix or remove it")
            }
            let before = list
            let result = try change(&list)
            if list != before { try write(list) }
            return result
        }
    }

    /// What identifies the file's current version (inode, size, change time): a cheap check
    /// for "changed since I last read it"; nil when there is no file.
    public func version() -> FileVersion? {
        var info = stat()
        guard stat(directory.file(DeviceList.fileName), &info) == 0 else { return nil }
        return FileVersion(
            inode: UInt64(info.st_ino), size: Int64(info.st_size),
            changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))
    }

    /// See `version()`.
    public struct FileVersion: Sendable, Hashable {
        var inode: UInt64
        var size: Int64
        var changed: Int64
    }
}
