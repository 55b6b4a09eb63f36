import GestureControl
import GestureEngine
import GesturePadSettings
import GestureProtocol

/// The configuration file's keys, one table per section: the only list of them. Each entry
/// names where its value goes (a key path into `ConfigFile`'s settings types), what it takes,
/// its default — read from the settings type where it has one — and what it means.
public enum ConfigKeys {
    /// The top level: the sections.
    public static let top = ConfigSection(
        nil,
        [
            .section("server", server),
            .section("gestures", gestures),
            .section("log", log),
            ConfigKey(name: "hooks", kind: "list", defaultValue: "none", meaning: "the hook rules") {
                reader, node, _, config in
                config.hooks = reader.readHooks(node)
            },
            .section("control", control),
        ])

    /// Every section with a table of its own, in the docs' order (`server.limits` is part of
    /// `server`).
    public static let sections: [ConfigSection] = [server, gestures, log, hook, control]

    /// `server:` — the server's `ServeSettings` (docs/server.md); flags override it.
    public static let server = ConfigSection(
        "server",
        [
            .text("host", \.server.host, default: "all interfaces", "address, host name or interface to listen on (`--host`)"),
            .integer(
                "port", \.server.port, range: ServeSettings.portRange, default: "`\(ServerConfiguration.defaultPort)`",
                "port to listen on; 0 picks a free one (`--port`)"),
            .text(
                "public", \.server.publicDirectory, default: "the installed page",
                "directory the page is served from (`--public`)"),
            .text(
                "token", \.server.token, default: "remembered",
                "pairing secret (`--token`; see [server.md](server.md#pairing-a-secret-to-pair-a-key-per-phone))"),
            .flag("auth", \.server.auth, default: true, "`false` turns the token check off (`--no-auth`)"),
            .flag(
                "tls", \.server.tls, default: false,
                "HTTPS / WSS with GesturePad's local certificate authority (`--tls`; [server.md](server.md#https---tls))"),
            .text(
                "tlsCert", \.server.tlsCertificate, default: "none",
                "your own certificate (PEM, with its chain) instead of the local CA, with `tlsKey` (`--tls-cert`)"),
            .text("tlsKey", \.server.tlsKey, default: "none", "the private key (PEM) of `tlsCert` (`--tls-key`)"),
            .section("limits", limits),
            .section("pairing", pairing),
        ])

    /// `server.pairing:` — `PairingSettings`: how new phones pair and what the desktop is told.
    public static let pairing = ConfigSection(
        "server.pairing",
        [
            .flag("confirm", \.pairing.confirm, "a new phone waits until it is accepted (`--confirm-pairing`)"),
            .number(
                "timeout", \.pairing.timeoutSeconds, PairingSettings.timeoutSecondsBound,
                "seconds a new phone waits (`--pairing-timeout`)"),
            ConfigKey(
                name: "notify", kind: "`off` / `pairing` / `connections`", defaultValue: "`pairing`",
                meaning: "desktop notifications of pairing (`--notify`)"
            ) { reader, node, key, config in
                // YAML 1.1 reads a bare `off` as false: take it (and `true`) as meant.
                if reader.tagName(node) == .bool, let on = node.bool {
                    config.pairing.notify = on ? .pairing : .off
                } else if let notify = reader.choice(node, key: key, PairingSettings.Notify.self) {
                    config.pairing.notify = notify
                }
            },
        ])

    /// `server.limits:` — the connection limit and the `ProtocolLimits`.
    public static let limits = ConfigSection(
        "server.limits",
        [
            .limit(
                "maxConnections", \.server.maxConnections, default: ServerConfiguration.defaultMaxConnections,
                "connections at once (`--max-connections`)"),
            .limit(
                "maxMessageBytes", \.server.maxMessageBytes, default: ProtocolLimits().maxMessageBytes,
                "message size limit (`--max-message-bytes`)"),
            .limit(
                "maxMessagesPerSecond", \.server.maxMessagesPerSecond, default: ProtocolLimits().maxMessagesPerSecond,
                "rate limit per connection (`--max-rate`)"),
            .limit(
                "maxErrorsInARow", \.server.maxErrorsInARow, default: ProtocolLimits().maxErrorsInARow,
                "bad messages before a close (`--max-errors`)"),
            .limit(
                "maxPointers", \.server.maxPointers, default: ProtocolLimits().maxPointers,
                "pointers down at once (`--max-pointers`)"),
        ])

    /// `gestures:` — the engine's `GestureConfig`, one key per `GestureConfig.fields` entry.
    public static let gestures = ConfigSection(
        "gestures",
        GestureConfig.fields.map { field in
            let value = ConfigReference.number(GestureConfig()[keyPath: field.keyPath])
            let unit = field.unit == "°" ? "°" : " \(field.unit)"
            return ConfigKey(name: field.key, kind: kind(of: field.rule), defaultValue: value + unit, meaning: field.meaning) {
                reader, node, key, config in
                guard let number = reader.number(node, key: key) else { return }
                do throws(GestureConfigError) {
                    try config.gestures.set(field.key, to: number)
                } catch {
                    reader.add(node, "\(key): \(error.description)")
                }
            }
        })

    /// `log:` — the terminal log, the JSON log and recording (`LogSettings`).
    public static let log = ConfigSection(
        "log",
        [
            .text("json", \.log.jsonPath, default: "none", "JSON log file (`--log-json`)"),
            .flag("verbose", \.log.verbose, "show every gesture event with its phase in the terminal (`--verbose`)"),
            ConfigKey(
                name: "color", kind: "`true` / `false` / `auto`", defaultValue: "`auto`",
                meaning: "colour the terminal log (`--no-color`)"
            ) { reader, node, key, config in
                if reader.tagName(node) == .str, node.scalar?.string == "auto" {
                    config.log.color = nil
                } else if reader.tagName(node) == .bool, let color = node.bool {
                    config.log.color = color
                } else {
                    reader.add(node, "\(key) must be true, false or auto, not \(reader.describe(node))")
                }
            },
            .flag("terminal", \.log.terminal, "print gesture lines on stdout at all (`--quiet`)"),
            .text(
                "record", \.log.recordDirectory, default: "none",
                "record every touchpad session's input into this folder (`--record`, [recording.md](recording.md))"),
        ])

    private static func kind(of rule: GestureConfig.Rule) -> String {
        switch rule {
        case .nonNegative: "number ≥ 0"
        case .positive: "number > 0"
        case .fraction: "number between 0 and 1"
        }
    }
}
