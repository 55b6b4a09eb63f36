/// Finds the folder of the page when `--public` is not given: `Public/` in the working
/// directory, else `Public/` next to the executable or in one of its parent folders (so
/// `.build/debug/gesturepad` finds the package's `Public/`). A candidate counts only if it
/// holds an `index.html`.
public enum PublicDirectoryLocator {
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

    /// The folders tried, in order.
    public static func candidates(workingDirectory: String, executablePath: String?) -> [String] {
        var result = [join(workingDirectory, "Public")]
        if let executablePath, let slash = executablePath.lastIndex(of: "/") {
            var directory = String(executablePath[..<slash])
            for _ in 0..<6 {
                result.append(join(directory, "Public"))
                guard let up = directory.lastIndex(of: "/"), up != directory.startIndex else { break }
                directory = String(directory[..<up])
            }
        }
        var seen = Set<String>()
        return result.filter { seen.insert($0).inserted }
    }

    private static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
