import GesturePadSettings
import Testing

@testable import GesturePadConfig

@Suite struct PairingConfigTests {
    /// `server.pairing:` sets confirmation, its timeout (seconds) and the notifications.
    @Test func pairingSection() throws {
        let config = try ConfigFile.parse(
            yaml: """
                server:
                  pairing:
                    confirm: true
                    timeout: 2.5
                    notify: connections
                """)
        #expect(config.pairing == PairingSettings(confirm: true, timeoutMilliseconds: 2_500, notify: .connections))
        #expect(try ConfigFile.parse(yaml: "server:\n  port: 1\n").pairing == PairingSettings())
        // A bare `off` is YAML's false: it means off.
        #expect(try ConfigFile.parse(yaml: "server:\n  pairing:\n    notify: off\n").pairing.notify == .off)
    }

    /// Wrong values are refused with the key named.
    @Test func wrongValues() {
        let cases = [
            ("server:\n  pairing:\n    timeout: 0\n", "server.pairing.timeout must be > 0"),
            ("server:\n  pairing:\n    notify: always\n", "server.pairing.notify must be one of off, pairing, connections"),
            ("server:\n  pairing:\n    confirm: yes please\n", "server.pairing.confirm must be true or false"),
        ]
        for (yaml, message) in cases {
            do {
                _ = try ConfigFile.parse(yaml: yaml)
                Issue.record("accepted: \(yaml)")
            } catch {
                #expect(error.issues.first?.message.hasPrefix(message) == true, "\(error.issues)")
            }
        }
    }
}
