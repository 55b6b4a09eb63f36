import Foundation
import GestureProtocol
import Testing

/// The page's module of server-defined values is the generated one.
struct PageModuleTests {
    /// Public/js/wire.js is `PageModule.text` to the byte (with GESTUREPAD_WRITE_PAGE_MODULE=1
    /// the test writes it first: after a change of a close code or a bound).
    @Test func committedModuleIsTheGeneratedOne() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let file = root.appendingPathComponent(PageModule.path)
        if ProcessInfo.processInfo.environment["GESTUREPAD_WRITE_PAGE_MODULE"] == "1" {
            try PageModule.text.write(to: file, atomically: true, encoding: .utf8)
        }
        let committed = try String(contentsOf: file, encoding: .utf8)
        #expect(committed == PageModule.text, "\(PageModule.path) differs: GESTUREPAD_WRITE_PAGE_MODULE=1 swift test --filter PageModule")
        #expect(committed.contains("CLOSE_DEVICE_NOT_PAIRED = 4403;") && committed.contains("speed: [0.1, 10]"))
    }
}
