import Foundation
import Testing

@testable import GesturePadServer

@Suite struct LastAddressTests {
    /// last-address.json round-trips, private (0600); a missing or broken file is no record.
    @Test func writesAndReadsBack() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gesturepad-state-\(UUID().uuidString)").path
        let state = StateDirectory(path: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(LastAddress.read(from: state) == nil)
        try LastAddress(port: 9000).write(to: state)
        #expect(LastAddress.read(from: state) == LastAddress(port: 9000))
        let attributes = try FileManager.default.attributesOfItem(atPath: state.file(LastAddress.fileName))
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        try state.write(LastAddress.fileName, Data("{".utf8))
        #expect(LastAddress.read(from: state) == nil)
    }

    /// The banner's line only when the port moved and a phone is paired; it names both ports.
    @Test func movedLine() {
        let previous = LastAddress(port: 8765)
        #expect(LastAddress.movedLine(previous: nil, port: 8080, pairedDevices: 2) == nil)
        #expect(LastAddress.movedLine(previous: previous, port: 8765, pairedDevices: 2) == nil)
        #expect(LastAddress.movedLine(previous: previous, port: 8080, pairedDevices: 0) == nil)
        let line = LastAddress.movedLine(previous: previous, port: 8080, pairedDevices: 2) ?? ""
        #expect(line.hasPrefix("The port changed: the last run listened on port 8765, this one on 8080. The 2 paired phones"))
        #expect(line.contains("point each at the new address"))
        #expect(
            LastAddress.movedLine(previous: previous, port: 8080, pairedDevices: 1)?.contains("The paired phone still") == true)
    }
}
