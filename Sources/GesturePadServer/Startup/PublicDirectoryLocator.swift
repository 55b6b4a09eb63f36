/// Finds the folder of the page when `--public` is not given. In order:
/// 1. `<bin>/../share/gesturepad/Public`, where `<bin>` is the executable's folder: an
///    installed copy (`make install`, the .deb) serves its own page, whatever the working
///    directory, and any `PREFIX` works (`/usr`, `/usr/local`, `~/.local`);
/// 2. `Public/` in the working directory;
/// 3. `Public/` next to the executable or in one of its parent folders (so
///    `.build/debug/gesturepad` finds the package's `Public/`).
///
/// A candidate counts only if it holds an `index.html`.
public enum PublicDirectoryLocator {
    /// Where an installation keeps the page, relative to the folder of the executable.
    public static let installedRelativePath = "../share/gesturepad/Public"

    /// The first candidate folder holding `index.html`, or `nil`.
    /// `isFile` answers whether a path names an existing regular file.
    public static func locate(
        workingDirectory: String, executablePath: String?, isFile: (String) -> Bool
    ) -> String? {
        for candidate in candidates(workingDirectory: workingDirectory, executablePath: executablePath)
        where isFile(candidate + "/index.html") {
            return candidate
        }
        return nil
    }

    /// The folders tried, in order, without `.` / `..` segments.
    public static func candidates(workingDirectory: String, executablePath: String?) -> [String] {
        var result: [String] = []
        var ancestors: [String] = []
        if let executablePath, let slash = executablePath.lastIndex(of: "/") {
            var directory = String(executablePath[..<slash])
            result.append(normalize(join(directory, installedRelativePath)))
            for _ in 0..<6 {
                ancestors.append(join(directory, "Public"))
                guard let up = directory.lastIndex(of: "/"), up != directory.startIndex else { break }
                directory = String(directory[..<up])
            }
        }
        result.append(join(workingDirectory, "Public"))
        result += ancestors
        var seen = Set<String>()
        return result.map(normalize).filter { seen.insert($0).inserted }
    }

    private static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// Removes `.` and empty segments and resolves `..` lexically (the executable's path
    /// comes from /proc/self/exe, already free of symbolic links).
    static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        return path.hasPrefix("/") ? "/" + joined : (joined.isEmpty ? "." : joined)
    }
}
