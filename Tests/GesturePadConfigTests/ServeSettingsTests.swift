import GestureEngine
import GesturePadSettings
import Testing

@testable import GesturePadConfig

@Suite struct ServeSettingsTests {
    func resolve(
        flags: ServeSettings = ServeSettings(), file: ServeSettings = ServeSettings(), env: String? = nil
    ) throws(SettingsError) -> ServerConfiguration {
        try ServeSettings.resolve(
            flags: flags, file: file, environmentToken: env, publicDirectory: "/p", gestures: GestureConfig(),
            makeToken: { "random-Secret0123456789abcdefZ" })
    }

    /// With nothing given: port 8765, all interfaces, a random token, the PROTOCOL.md limits.
    @Test func defaults() throws {
        let configuration = try resolve()
        #expect(configuration.port == 8765 && configuration.host == nil && configuration.token == "random-Secret0123456789abcdefZ")
        #expect(configuration.maxConnections == 32)
        #expect(configuration.limits.maxMessageBytes == 65_536 && configuration.limits.maxMessagesPerSecond == 2_000)
        #expect(configuration.limits.maxErrorsInARow == 20 && configuration.limits.maxPointers == 10)
    }

    /// Flags override the file, the file overrides the defaults.
    @Test func precedence() throws {
        let file = ServeSettings(host: "10.0.0.1", port: 9000, maxConnections: 5, maxPointers: 3)
        let flags = ServeSettings(port: 9001, maxPointers: 4)
        let configuration = try resolve(flags: flags, file: file)
        #expect(configuration.port == 9001 && configuration.host == "10.0.0.1")
        #expect(configuration.maxConnections == 5 && configuration.limits.maxPointers == 4)
    }

    /// Token: flag, then environment, then file, then random; auth off wins over all.
    @Test func tokenSources() throws {
        #expect(try resolve(flags: ServeSettings(token: "flag-Secret0123456789abcdefZ"), file: ServeSettings(token: "file-Secret0123456789abcdefZ"), env: "env-Secret0123456789abcdefZ").token == "flag-Secret0123456789abcdefZ")
        #expect(try resolve(file: ServeSettings(token: "file-Secret0123456789abcdefZ"), env: "env-Secret0123456789abcdefZ").token == "env-Secret0123456789abcdefZ")
        #expect(try resolve(file: ServeSettings(token: "file-Secret0123456789abcdefZ"), env: "").token == "file-Secret0123456789abcdefZ")
        #expect(try resolve(flags: ServeSettings(token: "flag-Secret0123456789abcdefZ", auth: false)).token == nil)
        #expect(try resolve(file: ServeSettings(auth: false)).token == nil)
    }

    /// Bad values are refused with a message naming the option.
    @Test func refusesBadValues() {
        #expect(throws: SettingsError.self) { try resolve(flags: ServeSettings(port: 70_000)) }
        #expect(throws: SettingsError.self) { try resolve(flags: ServeSettings(maxConnections: 0)) }
        #expect(throws: SettingsError.self) { try resolve(flags: ServeSettings(token: "has space")) }
        do {
            _ = try resolve(flags: ServeSettings(maxMessagesPerSecond: -1))
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("--max-rate"))
        }
    }

    /// A bad value names the layer that gave it, read once: the file's own (a file problem, exit
    /// 1) or a flag's and the environment's (a usage error) — also when both give one.
    @Test func badValuesNameTheirLayer() {
        func origin(_ flags: ServeSettings, _ file: ServeSettings, env: String? = nil) -> SettingsError.Origin? {
            do {
                _ = try resolve(flags: flags, file: file, env: env)
                return nil
            } catch {
                return error.origin
            }
        }
        #expect(origin(ServeSettings(), ServeSettings(port: 70_000)) == .file)
        #expect(origin(ServeSettings(port: 70_000), ServeSettings(port: 9000)) == .command)
        #expect(origin(ServeSettings(port: 9000), ServeSettings(port: 70_000)) == nil)
        #expect(origin(ServeSettings(), ServeSettings(maxErrorsInARow: 0)) == .file)
        #expect(origin(ServeSettings(maxErrorsInARow: 0), ServeSettings()) == .command)
        #expect(origin(ServeSettings(maxPointers: 4), ServeSettings(maxConnections: 0)) == .file)
        #expect(origin(ServeSettings(), ServeSettings(token: "has space")) == .file)
        #expect(origin(ServeSettings(), ServeSettings(token: "file-Secret0123456789abcdefZ"), env: "has space") == .command)
        #expect(origin(ServeSettings(token: "has space"), ServeSettings()) == .command)
    }

    /// Wildcard hosts mean all interfaces; 0.0.0.0 is kept (IPv4 only).
    @Test func wildcardHosts() throws {
        #expect(try resolve(flags: ServeSettings(host: "::")).host == nil)
        #expect(try resolve(flags: ServeSettings(host: "0.0.0.0")).host == "0.0.0.0")
    }
}
