import GestureControl
import GesturePadSettings
import Testing

@testable import GesturePadConfig

/// The flags over the file, section by section (`ConfigFile+Flags`, `ServeSettings.tokenSource`).
@Suite struct ConfigFlagsTests {
    private func file(_ yaml: String) throws -> ConfigFile {
        try ConfigFile.parse(yaml: yaml)
    }

    /// Acceleration: the flag, else the file's, else the backend's; kinetic scrolling the
    /// file's, else the backend's; `--speed` and `--no-natural-scroll` override the file's
    /// values, the rest of `control:` stays.
    @Test func controlSettings() throws {
        let config = try file("control:\n  speed: 2\n  tapToClick: false\n")
        let plain = config.controlSettings(
            flags: SettingsUpdate(), backendAcceleration: .flat, backendKineticScrolling: true)
        #expect(plain.acceleration == .flat && plain.speed == 2 && !plain.tapToClick && plain.naturalScroll)
        #expect(plain.kineticScrolling)
        let withFile = try file("control:\n  acceleration: adaptive\n  kineticScrolling: false\n")
        let fileFirst = withFile.controlSettings(
            flags: SettingsUpdate(), backendAcceleration: .flat, backendKineticScrolling: true)
        #expect(fileFirst.acceleration == .adaptive && !fileFirst.kineticScrolling)
        let flags = SettingsUpdate(speed: 3, acceleration: .flat, naturalScroll: false)
        let flagged = withFile.controlSettings(
            flags: flags, backendAcceleration: .adaptive, backendKineticScrolling: true)
        #expect(flagged.acceleration == .flat && flagged.speed == 3 && !flagged.naturalScroll)
        #expect(config.controlMode(flag: nil) == .auto && config.controlMode(flag: .x11) == .x11)
        #expect(try file("control:\n  backend: uinput\n").controlMode(flag: nil) == .uinput)
    }

    /// `--confirm-pairing` only turns confirmation on; the timeout and notify flags replace the
    /// file's.
    @Test func pairingSettings() throws {
        let config = try file("server:\n  pairing:\n    confirm: true\n    timeout: 5\n")
        #expect(config.pairingSettings(flags: PairingFlags()) == config.pairing)
        let flagged = config.pairingSettings(flags: PairingFlags(timeoutSeconds: 9, notify: .off))
        #expect(flagged == PairingSettings(confirm: true, timeoutMilliseconds: 9_000, notify: .off))
        #expect(ConfigFile().pairingSettings(flags: PairingFlags(confirm: true)).confirm)
    }

    /// Log flags win over `log:`; `--no-color` and `--quiet` switch off what the file switched
    /// on; `--no-hooks` drops the rules.
    @Test func logSettings() throws {
        let config = try file(
            "log:\n  json: a.jsonl\n  color: true\n  verbose: false\n  record: r\nhooks:\n  - {gesture: tap, run: [x]}\n")
        let same = config.logSettings(flags: OutputFlags())
        #expect(same == config.log && config.hookRules(flags: OutputFlags()).count == 1)
        let flags = OutputFlags(
            jsonPath: "b.jsonl", verbose: true, noColor: true, quiet: true, noHooks: true, recordDirectory: "s")
        let flagged = config.logSettings(flags: flags)
        #expect(flagged.jsonPath == "b.jsonl" && flagged.verbose && flagged.color == false && !flagged.terminal)
        #expect(flagged.recordDirectory == "s" && config.hookRules(flags: flags).isEmpty)
        #expect(config.publicDirectory(flag: nil) == nil && config.publicDirectory(flag: "p") == "p")
    }

    /// The token's source is decided once: auth off wins, then a flag, `GESTUREPAD_TOKEN` (empty
    /// is unset) and the file, in that order; else the remembered one.
    @Test func tokenSource() {
        func source(_ flags: ServeSettings = ServeSettings(), _ file: ServeSettings = ServeSettings(), _ env: String? = nil)
            -> TokenSource
        {
            ServeSettings.tokenSource(flags: flags, file: file, environmentToken: env)
        }
        #expect(source() == .remembered && source(ServeSettings(), ServeSettings(), "") == .remembered)
        #expect(source(ServeSettings(token: "f"), ServeSettings(token: "c"), "e") == .given("f"))
        #expect(source(ServeSettings(), ServeSettings(token: "c"), "e") == .given("e"))
        #expect(source(ServeSettings(), ServeSettings(token: "c"), "") == .given("c"))
        #expect(source(ServeSettings(auth: false), ServeSettings(token: "c"), "e") == .off)
        #expect(source(ServeSettings(token: "f"), ServeSettings(auth: false)) == .off)
        #expect(source(ServeSettings(auth: true), ServeSettings(auth: false)) == .remembered)
    }
}
