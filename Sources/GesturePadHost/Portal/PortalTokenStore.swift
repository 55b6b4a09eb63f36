import GesturePadSystem
import Glibc

/// Where the RemoteDesktop portal's restore token is kept between runs, so the desktop asks
/// for permission once, not at every start: `portal-restore-token` in the state directory the
/// CLI gives (`XDGDirectories.state`: `~/.local/state/gesturepad` by default), read and written
/// through `PrivateFolder` like the server's own state files. Deleting the file resets the consent: the desktop asks again at
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
        guard let bytes = PrivateFolder(path: directory).read(name, limit: Self.maximumLength + 2) else { return nil }
        let token = String(
            decoding: bytes.drop { Self.isSpace($0) }.reversed().drop { Self.isSpace($0) }.reversed(), as: UTF8.self)
        return Self.isValid(token) ? token : nil
    }

    /// Stores `token` (0600), replacing the old one. Throws a one-line `ControlBackendError`.
    /// `durable`: synced to the disk (a restore token must survive a power cut); without it
    /// only a process's death is survived — enough for `portal-held`, which is rewritten at
    /// every press and release and must not wait for the disk.
    public func save(_ token: String, durable: Bool = true) throws {
        guard Self.isValid(token) else { throw ControlBackendError.portal("the portal sent an unusable restore token") }
        do {
            try PrivateFolder(path: directory).write(name, Array((token + "\n").utf8), durable: durable)
        } catch {
            throw ControlBackendError.portal(error.description)
        }
    }

    /// Deletes the stored token (the desktop asks again at the next start).
    public func remove() {
        PrivateFolder(path: directory).remove(name)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    static func isValid(_ token: String) -> Bool {
        !token.isEmpty && token.utf8.count <= maximumLength && token.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }
}
