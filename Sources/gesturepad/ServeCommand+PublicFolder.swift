import FoundationEssentials
import GesturePadServer
import Logging

/// Where `serve` finds the page.
extension ServeCommand {
    /// The page folder as an absolute path: the given one, else the package's `Public/`.
    static func publicFolder(_ given: String?, logger: Logger) throws -> String {
        let files = FileManager.default
        let cwd = files.currentDirectoryPath
        let folder: String
        if let given {
            folder =
                URL(fileURLWithPath: given, relativeTo: URL(fileURLWithPath: cwd, isDirectory: true))
                .standardizedFileURL.path
        } else {
            let executable =
                (try? files.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments.first
            guard
                let found = PublicDirectoryLocator.locate(
                    workingDirectory: cwd, executablePath: executable,
                    isFile: { path in
                        var isDirectory = false
                        return files.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory
                    })
            else {
                throw CommandFailure.file(
                    "cannot find the page folder (Public/ with an index.html) in \(cwd) or next to the executable; pass --public DIR"
                )
            }
            folder = URL(fileURLWithPath: found).standardizedFileURL.path
        }
        var isDirectory = false
        guard files.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory else {
            throw CommandFailure.option("--public", "\(folder) is not a folder")
        }
        if !files.fileExists(atPath: folder + "/index.html") {
            logger.warning("the page folder has no index.html", metadata: ["public": "\(folder)"])
        }
        return folder
    }
}
