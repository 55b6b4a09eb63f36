import GestureControl
import GesturePadSettings
import Testing

@testable import GesturePadConfig

/// The file checks the one bound of a setting that flags or the page set too.
@Suite struct SettingBoundConfigTests {
    private func message(_ yaml: String) -> String? {
        do {
            _ = try ConfigFile.parse(yaml: yaml)
            return nil
        } catch {
            return error.issues.first?.message
        }
    }

    /// Speed and scroll speed: the page's 0.1 to 10, ends included; pairing timeout: up to a day.
    @Test func boundsAreTheFlagsAndThePages() throws {
        #expect(try ConfigFile.parse(yaml: "control:\n  speed: 10\n  scrollSpeed: 0.1\n").control.speed == 10)
        #expect(message("control:\n  speed: 10.5\n") == "control.speed must be from 0.1 to 10, not 10.5")
        #expect(message("control:\n  scrollSpeed: 0.05\n") == "control.scrollSpeed must be from 0.1 to 10, not 0.05")
        #expect(try ConfigFile.parse(yaml: "server:\n  pairing:\n    timeout: 86400\n").pairing.timeoutSeconds == 86_400)
        #expect(message("server:\n  pairing:\n    timeout: 86401\n") == "server.pairing.timeout must be > 0 and ≤ 86400, not 86401.0")
        #expect(ConfigKeys.control.key("speed")?.kind == "number \(ControlSettings.speedBound.text)")
    }
}
