import Glibc
import Testing

@testable import GesturePadSystem

/// The private folder behind every state file: modes, atomic replacement, no symlink followed.
struct PrivateFolderTests {
    /// A fresh folder under /tmp, removed with its contents afterwards.
    func withScratch(_ body: (String) throws -> Void) rethrows {
        var template = Array("/tmp/private-folder-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        guard let made else {
            Issue.record("mkdtemp failed")
            return
        }
        let root = String(cString: made)
        defer { _ = system("rm -rf '\(root)'") }
        try body(root)
    }

    func mode(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o777 : 0
    }

    func entries(_ path: String) -> [String] {
        guard let folder = opendir(path) else { return [] }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    @Test func writesPrivatelyAndReplacesWholly() throws {
        try withScratch { root in
            let folder = PrivateFolder(path: root + "/state/gesturepad")
            try folder.write("token", Array("first\n".utf8))
            #expect(mode(root + "/state") == 0o700)
            #expect(mode(folder.path) == 0o700)
            #expect(mode(folder.file("token")) == 0o600)
            try folder.write("token", Array("second\n".utf8), durable: false)
            #expect(folder.read("token") == Array("second\n".utf8))
            #expect(entries(folder.path) == ["token"], "no temporary file is left behind")
            folder.remove("token")
            #expect(folder.read("token") == nil)
        }
    }

    @Test func aLooseFolderIsMadePrivateAgain() throws {
        try withScratch { root in
            let folder = PrivateFolder(path: root + "/gesturepad")
            try folder.ensure()
            chmod(folder.path, 0o755)
            try folder.write("devices.json", Array("{}".utf8))
            #expect(mode(folder.path) == 0o700)
        }
    }

    @Test func aPlantedSymlinkIsNeitherReadNorWrittenThrough() throws {
        try withScratch { root in
            let folder = PrivateFolder(path: root + "/gesturepad")
            try folder.ensure()
            let outside = root + "/outside"
            let bytes = Array("the user's file\n".utf8)
            #expect(creat(outside, 0o644) >= 0)
            let written = bytes.withUnsafeBytes { buffer -> Int in
                let descriptor = open(outside, O_WRONLY)
                defer { close(descriptor) }
                return write(descriptor, buffer.baseAddress, buffer.count)
            }
            #expect(written == bytes.count)
            #expect(symlink(outside, folder.file("token")) == 0)
            #expect(folder.read("token") == nil, "a symlink is not followed for reading")
            try folder.write("token", Array("secret\n".utf8))
            // The link itself was replaced; the file it pointed to is untouched and still 0644.
            #expect(mode(folder.file("token")) == 0o600)
            #expect(PrivateFolder(path: root).read("outside") == bytes)
            #expect(mode(outside) == 0o644)
        }
    }

    @Test func aFileTooLargeIsNotRead() throws {
        try withScratch { root in
            let folder = PrivateFolder(path: root)
            try folder.write("big", [UInt8](repeating: 65, count: 100))
            #expect(folder.read("big", limit: 99) == nil)
            #expect(folder.read("big", limit: 100)?.count == 100)
        }
    }

    @Test func aFolderThatCannotBeMadeIsOneLine() {
        let folder = PrivateFolder(path: "/proc/self/cannot/be")
        #expect(throws: PrivateFolderError.self) { try folder.write("x", [1]) }
    }
}
