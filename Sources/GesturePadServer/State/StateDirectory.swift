import FoundationEssentials
import GesturePadSystem
import Glibc

/// The user's state directory for GesturePad: `$XDG_STATE_HOME/gesturepad`, by default
/// `~/.local/state/gesturepad` (the CLI gets the path from `XDGDirectories.state`). It holds
/// what must outlive a run and stay private: the access token, the local certificate authority
/// and server certificate, the paired devices, the portal's restore token. The folder is made
/// 0700 and every file written 0600, atomically (a temporary file renamed over the old one), so
/// no other user can read them and no crash leaves half a file.
public struct StateDirectory: Sendable, Hashable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The path of a file in the folder.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Makes the folder (and its parents) if missing, and makes sure it is 0700.
    public func ensure() throws(StateError) {
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StateError("cannot create the state folder \(path): \(SystemCall.describe(error))")
        }
        do {
            try SystemCall.retrying { chmod(path, 0o700) }
        } catch {
            throw StateError("cannot make the state folder \(path) private: \(error)")
        }
    }

    /// The contents of a file, or nil when it does not exist or cannot be read.
    public func read(_ name: String) -> Data? {
        FileManager.default.contents(atPath: file(name))
    }

    /// Writes a file 0600, atomically.
    public func write(_ name: String, _ contents: Data) throws(StateError) {
        try ensure()
        let target = file(name)
        let temporary = target + ".tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: nil, attributes: [.posixPermissions: 0o600])
        else { throw StateError("cannot write \(target): \(SystemCall.describe(errno))") }
        do {
            try FileIO.writeFile(temporary, contents)
        } catch {
            unlink(temporary)
            throw StateError("cannot write \(target): \(error)")
        }
        do {
            try SystemCall.retrying { chmod(temporary, 0o600) }
            try SystemCall.retrying { rename(temporary, target) }
        } catch {
            unlink(temporary)
            throw StateError("cannot write \(target): \(error)")
        }
    }

    /// Removes a file if it exists.
    public func remove(_ name: String) {
        unlink(file(name))
    }
}

/// A problem with the state directory, as one line for the user.
public struct StateError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
