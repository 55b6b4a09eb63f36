import Foundation
import Testing

@testable import GesturePadServer

@Suite struct ServerRecordTests {
    func temporaryState() throws -> StateDirectory {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gesturepad-state-\(UUID().uuidString)").path
        return StateDirectory(path: path)
    }

    /// server.json round-trips, is private (0600) and never holds the token itself.
    @Test func writesAndReadsBack() throws {
        let state = try temporaryState()
        defer { try? FileManager.default.removeItem(atPath: state.path) }
        let record = ServerRecord(
            pid: 4242, port: 8765, secure: true, host: nil, token: .remembered,
            started: Date(timeIntervalSince1970: 1_795_000_000), version: "0.5.0",
            publicDirectory: "/usr/share/gesturepad/Public",
            configFile: "/home/me/.config/gesturepad/config.yaml")
        try record.write(to: state)
        #expect(ServerRecord.read(from: state) == record)
        #expect(record.scheme == "https" && record.secure)
        #expect(record.started == "2026-11-18T11:06:40Z")
        let attributes = try FileManager.default.attributesOfItem(atPath: state.file(ServerRecord.fileName))
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let text = String(decoding: state.read(ServerRecord.fileName) ?? Data(), as: UTF8.self)
        #expect(text.contains(#""token":"remembered""#))
    }

    /// A server removes only its own record (another one may share the folder).
    @Test func removesOnlyItsOwn() throws {
        let state = try temporaryState()
        defer { try? FileManager.default.removeItem(atPath: state.path) }
        let record = ServerRecord(pid: 7, port: 1, secure: false, host: "127.0.0.1", token: .given, started: Date(), version: "v")
        try record.write(to: state)
        ServerRecord.remove(from: state, pid: 8)
        #expect(ServerRecord.read(from: state) != nil)
        ServerRecord.remove(from: state, pid: 7)
        #expect(ServerRecord.read(from: state) == nil)
    }

    /// A second server replacing a running one's record puts it back when it stops; a record of
    /// a server that is gone meanwhile is not put back.
    @Test func restoresTheRecordItReplaced() throws {
        let state = try temporaryState()
        defer { try? FileManager.default.removeItem(atPath: state.path) }
        let unit = ServerRecord(pid: 100, port: 8765, secure: false, host: nil, token: .remembered, started: Date(), version: "v")
        try unit.write(to: state)
        let previous = ServerRecord.replaced(in: state, by: 200, isRunning: { $0 == 100 })
        #expect(previous == unit)
        #expect(ServerRecord.replaced(in: state, by: 200, isRunning: { _ in false }) == nil)
        let manual = ServerRecord(
            pid: 200, port: 9000, secure: false, host: nil, token: .remembered, started: Date(), version: "v")
        try manual.write(to: state)
        ServerRecord.release(in: state, pid: 200, restoring: previous, isRunning: { $0 == 100 })
        #expect(ServerRecord.read(from: state) == unit)
        try manual.write(to: state)
        ServerRecord.release(in: state, pid: 200, restoring: previous, isRunning: { _ in false })
        #expect(ServerRecord.read(from: state) == nil)
    }

    /// The status says running, stale (the process is gone) or none; junk is none.
    @Test func status() throws {
        let state = try temporaryState()
        defer { try? FileManager.default.removeItem(atPath: state.path) }
        #expect(ServerRecord.status(in: state, isRunning: { _ in true }) == .none)
        let record = ServerRecord(pid: 9, port: 1, secure: false, host: nil, token: .none, started: Date(), version: "v")
        try record.write(to: state)
        #expect(ServerRecord.status(in: state, isRunning: { $0 == 9 }) == .running(record))
        #expect(ServerRecord.status(in: state, isRunning: { _ in false }) == .stale(record))
        try state.write(ServerRecord.fileName, Data("{not json".utf8))
        #expect(ServerRecord.status(in: state, isRunning: { _ in true }) == .none)
    }

    /// A pid counts only while it is a live process named gesturepad.
    @Test func processProbe() {
        #expect(ProcessProbe.isGesturePadName("gesturepad\n"))
        #expect(!ProcessProbe.isGesturePadName("bash\n"))
        #expect(!ProcessProbe.isGesturePad(0))
        #expect(!ProcessProbe.isGesturePad(getpid()))  // the test runner is not gesturepad
        #expect(!ProcessProbe.isGesturePad(Int32.max))
    }

    /// The remembered token is read back without ever making one.
    @Test func storedTokenIsReadOnly() throws {
        let state = try temporaryState()
        defer { try? FileManager.default.removeItem(atPath: state.path) }
        #expect(TokenStore.stored(in: state) == nil)
        #expect(!FileManager.default.fileExists(atPath: state.path))
        let (token, _) = try TokenStore.load(from: state, renew: false)
        #expect(TokenStore.stored(in: state) == token)
    }
}
