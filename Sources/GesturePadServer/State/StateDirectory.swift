import FoundationEssentials
import GesturePadSystem

/// The user's state directory for GesturePad: `$XDG_STATE_HOME/gesturepad`, by default
/// `~/.local/state/gesturepad` (the CLI gets the path from `XDGDirectories.state`). It holds
/// what must outlive a run and stay private: the access token, the local certificate authority
/// and server certificate, the paired devices, the portal's restore token. Files are read and
/// written through `PrivateFolder`: 0700 / 0600, no symlink followed, atomic and synced.
public struct StateDirectory: Sendable, Hashable {
    public let path: String
    /// The one implementation of private files (`PrivateFolder`), shared with the portal's.
    private var folder: PrivateFolder { PrivateFolder(path: path) }

    public init(path: String) {
        self.path = path
    }

    /// The path of a file in the folder.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Makes the folder (and its parents) if missing, and makes sure it is 0700.
    public func ensure() throws(StateError) {
        do {
            try folder.ensure()
        } catch {
            throw StateError(error.description)
        }
    }

    /// The contents of a file, or nil when it does not exist or cannot be read.
    public func read(_ name: String) -> Data? {
        folder.read(name).map { Data($0) }
    }

    /// Writes a file 0600, atomically; `durable`: synced (see `PrivateFolder`).
    public func write(_ name: String, _ contents: Data, durable: Bool = true) throws(StateError) {
        do {
            try folder.write(name, Array(contents), durable: durable)
        } catch {
            throw StateError(error.description)
        }
    }

    /// Removes a file if it exists.
    public func remove(_ name: String) {
        folder.remove(name)
    }
}

/// A problem with the state directory, as one line for the user.
public struct StateError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
