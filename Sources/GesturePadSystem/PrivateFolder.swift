#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder of private files: the one implementation behind the server's state folder
/// (token, certificates, paired devices) and the portal's files (restore token, held buttons).
///
/// - The folder and its missing parents are made 0700; the folder itself must belong to this
///   user and is made 0700 again at every write (a folder someone else owns is refused).
/// - Files are opened relative to the folder's descriptor with `O_NOFOLLOW`: a symlink planted
///   in its place is not followed, for reading or writing.
/// - A write goes to a new temporary file (`O_CREAT | O_EXCL`, 0600) that is then renamed over
///   the old one, so a reader never sees half a file. `durable` adds an `fsync` of the file
///   before the rename and of the folder after it (the change survives a power cut); without
///   it only the process's death is survived — for files rewritten at every button press.
public struct PrivateFolder: Sendable, Hashable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The path of a file in the folder.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Makes the folder (and its missing parents, 0700) and makes sure it is this user's and 0700.
    public func ensure() throws(PrivateFolderError) {
        let folder = try openFolder(creating: true)
        close(folder)
    }

    /// The contents of a file, or nil when it is missing, unreadable, a symlink, or larger than `limit`.
    public func read(_ name: String, limit: Int = 1 << 22) -> [UInt8]? {
        guard let folder = try? openFolder(creating: false) else { return nil }
        defer { close(folder) }
        guard let descriptor = try? SystemCall.retrying({ openat(folder, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) })
        else { return nil }
        defer { close(descriptor) }
        return try? FileIO.readToEnd(descriptor, limit: limit)
    }

    /// Replaces file `name` with `contents` (0600, atomically; `durable`: synced, see the type).
    public func write(_ name: String, _ contents: [UInt8], durable: Bool = true) throws(PrivateFolderError) {
        let folder = try openFolder(creating: true)
        defer { close(folder) }
        let temporary = ".\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor: Int32
        do {
            descriptor = try SystemCall.retrying {
                openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            }
        } catch {
            throw PrivateFolderError("cannot write \(file(name)): \(error)")
        }
        var failure: SystemCallError?
        do {
            try FileIO.write(contents, to: descriptor)
            if durable { try SystemCall.retrying { fsync(descriptor) } }
        } catch {
            failure = error
        }
        close(descriptor)
        do {
            if let failure { throw failure }
            try SystemCall.retrying { renameat(folder, temporary, folder, name) }
        } catch {
            unlinkat(folder, temporary, 0)
            throw PrivateFolderError("cannot write \(file(name)): \(error)")
        }
        // The rename itself is on the disk once the folder is.
        if durable { _ = try? SystemCall.retrying { fsync(folder) } }
    }

    /// Removes a file if it exists.
    public func remove(_ name: String) {
        guard let folder = try? openFolder(creating: false) else { return }
        unlinkat(folder, name, 0)
        close(folder)
    }

    /// A descriptor of the folder, checked to be this user's and made 0700.
    private func openFolder(creating: Bool) throws(PrivateFolderError) -> Int32 {
        var folder: Int32
        do {
            folder = try SystemCall.retrying { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        } catch {
            guard creating, error.errno == ENOENT else {
                throw PrivateFolderError("cannot open the folder \(path): \(error)")
            }
            try makeParents()
            do {
                folder = try SystemCall.retrying { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
            } catch {
                throw PrivateFolderError("cannot open the folder \(path): \(error)")
            }
        }
        var info = stat()
        guard fstat(folder, &info) == 0, info.st_uid == geteuid() else {
            close(folder)
            throw PrivateFolderError("the folder \(path) belongs to another user; remove it or fix its owner")
        }
        if info.st_mode & 0o777 != 0o700 {
            do {
                try SystemCall.retrying { fchmod(folder, 0o700) }
            } catch {
                close(folder)
                throw PrivateFolderError("cannot make the folder \(path) private: \(error)")
            }
        }
        return folder
    }

    /// `mkdir -p` with 0700 for each folder it makes (existing ones are left as they are).
    private func makeParents() throws(PrivateFolderError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            do {
                try SystemCall.retrying { mkdir(current, 0o700) }
            } catch {
                guard error.errno == EEXIST else {
                    throw PrivateFolderError("cannot create the folder \(current): \(error)")
                }
            }
        }
    }
}

/// A private folder's problem, as one line for the user.
public struct PrivateFolderError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
