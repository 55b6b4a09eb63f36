import Foundation
import Testing

@testable import GesturePadHost

/// The restore token file: where it lives, its permissions, replacing and reading it.
@Suite struct PortalTokenStoreTests {
    private func temporaryFolder() -> String {
        let path = NSTemporaryDirectory() + "gesturepad-token-\(UUID().uuidString)"
        return path
    }

    private func mode(_ path: String) -> Int {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return (attributes?[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    /// Saving makes the missing folders 0700 and the file 0600; loading reads it back.
    @Test func saveAndLoad() throws {
        let root = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = PortalTokenStore(directory: root + "/state/gesturepad")
        #expect(store.load() == nil)
        try store.save("token-1")
        #expect(store.load() == "token-1")
        #expect(mode(store.path) == 0o600)
        #expect(mode(store.directory) == 0o700)
        #expect(mode(root + "/state") == 0o700)
        try store.save("token-2")
        #expect(store.load() == "token-2")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.directory)
        #expect(leftovers == [PortalTokenStore.fileName])
        store.remove()
        #expect(store.load() == nil)
    }

    /// What is not a token is neither saved nor loaded.
    @Test func invalidTokens() throws {
        let root = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = PortalTokenStore(directory: root)
        #expect(throws: ControlBackendError.self) { try store.save("has space") }
        #expect(throws: ControlBackendError.self) { try store.save("") }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try Data("\n  \n".utf8).write(to: URL(fileURLWithPath: store.path))
        #expect(store.load() == nil)
        try Data(" fine-token \n".utf8).write(to: URL(fileURLWithPath: store.path))
        #expect(store.load() == "fine-token")
    }
}
