import FoundationEssentials
import GesturePadSystem
import Glibc

/// Where the RemoteDesktop portal's restore token is kept between runs, so the desktop asks
/// for permission once, not at every start: `portal-restore-token` in the state directory the
/// CLI gives (`XDGDirectories.state`: `~/.local/state/gesturepad` by default). Missing folders
/// are made 0700, the file is written 0600 through a temporary file and a rename, so a reader
/// never sees half a token. Deleting the file resets the consent: the desktop asks again at
/// the next start.
public struct PortalTokenStore: Sendable, Hashable {
    public static let fileName = "portal-restore-token"
    /// Longer tokens are not ones a portal wrote (they are UUIDs today).
    static let maximumLength = 4096

    /// The folder holding the file (`…/gesturepad`).
    public let directory: String
    /// The file's name in it: `fileName`, or another short value of the portal backend's
    /// (`portal-held`: what a KDE session holds, `PortalLoop`).
    public let name: String

    public init(directory: String, name: String = Self.fileName) {
        self.directory = directory
        self.name = name
    }

    /// The token file.
    public var path: String { directory + "/" + name }

    /// The stored token, or nil when there is none or it is not one (empty, too long, not
    /// printable ASCII).
    public func load() -> String? {
        guard let data = FileManager.default.contents(atPath: path),
            let text = String(data: data, encoding: .utf8)
        else { return nil }
        let token = text.trimmingWhitespaceAndNewlines()
        return Self.isValid(token) ? token : nil
    }

    /// Stores `token` (0600), replacing the old one. Throws a one-line `ControlBackendError`.
    /// `durable`: synced to the disk before the rename (a restore token must survive a power
    /// cut); without it only a process's death is survived — enough for `portal-held`, which
    /// is rewritten at every press and release and must not wait for the disk.
    public func save(_ token: String, durable: Bool = true) throws {
        guard Self.isValid(token) else { throw ControlBackendError("the portal sent an unusable restore token") }
        try Self.makeDirectories(directory)
        let temporary = path + ".tmp-\(getpid())"
        let descriptor: Int32
        do {
            descriptor = try SystemCall.retrying { open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600) }
        } catch {
            throw failure("cannot write", temporary, error.errno)
        }
        _ = fchmod(descriptor, 0o600)
        var failed = FileDescriptorSink(fileDescriptor: descriptor).write(Array((token + "\n").utf8))
        do {
            if durable { try SystemCall.retrying { fsync(descriptor) } }
        } catch {
            failed = failed ?? error.errno
        }
        close(descriptor)
        if let code = failed {
            unlink(temporary)
            throw failure("cannot write", temporary, code)
        }
        do {
            try SystemCall.retrying { rename(temporary, path) }
        } catch {
            unlink(temporary)
            throw failure("cannot replace", path, error.errno)
        }
    }

    /// Deletes the stored token (the desktop asks again at the next start).
    public func remove() {
        unlink(path)
    }

    static func isValid(_ token: String) -> Bool {
        !token.isEmpty && token.utf8.count <= maximumLength && token.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// Makes `directory` and its missing parents, each 0700 (existing ones are left as they are).
    private static func makeDirectories(_ directory: String) throws {
        var current = ""
        for component in directory.split(separator: "/") {
            current += "/" + component
            do {
                try SystemCall.retrying { mkdir(current, 0o700) }
            } catch {
                guard error.errno == EEXIST else { throw failure("cannot create", current, error.errno) }
            }
        }
    }

    private func failure(_ what: String, _ path: String, _ code: Int32) -> ControlBackendError {
        Self.failure(what, path, code)
    }

    private static func failure(_ what: String, _ path: String, _ code: Int32) -> ControlBackendError {
        ControlBackendError("\(what) \(path): \(errorText(code))")
    }
}
