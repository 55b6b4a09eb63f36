import GestureControl
import GesturePadSettings
import GesturePadYAML

/// One key of a configuration section: its name, the values it takes, its default, one line
/// of meaning, and where its value goes in a `ConfigFile` (a writable key path into the
/// settings type that uses it). The tables of `ConfigKeys` are made of these; the reader,
/// `check-config`'s "did you mean" and the docs' tables (`ConfigReference`) all come from them.
public struct ConfigKey: Sendable {
    /// The key as written in the file.
    public let name: String
    /// The values it takes, as the docs' "type" column says it.
    public let kind: String
    /// Its default, as the docs say it ("" when there is none to tell).
    public let defaultValue: String
    /// One line: what it does (and the flag that overrides it).
    public let meaning: String
    let reading: Reading

    /// How the reader takes the key's value.
    enum Reading: Sendable {
        /// One value, read and stored into the file by the closure; it gets the key's full
        /// name (`server.port`) for its messages.
        case value(@Sendable (inout ConfigReader, YAMLNode, _ key: String, inout ConfigFile) -> Void)
        /// A nested section (`server.limits`).
        case section(ConfigSection)
        /// Read by the section's own reader: the keys of a hook rule depend on each other.
        case byRule
    }
}

extension ConfigKey {
    /// A key whose value `read` turns into a `Value` (nil: refused, the reader has said why)
    /// stored at `path`.
    static func value<Value>(
        _ name: String, _ path: WritableKeyPath<ConfigFile, Value> & Sendable, kind: String, default defaultValue: String,
        _ meaning: String, read: @escaping @Sendable (inout ConfigReader, YAMLNode, String) -> Value?
    ) -> ConfigKey {
        ConfigKey(name: name, kind: kind, defaultValue: defaultValue, meaning: meaning) { reader, node, key, file in
            if let value = read(&reader, node, key) { file[keyPath: path] = value }
        }
    }

    /// Text (a number written there is taken as its text).
    static func text(
        _ name: String, _ path: WritableKeyPath<ConfigFile, String?> & Sendable, default defaultValue: String,
        _ meaning: String
    ) -> ConfigKey {
        value(name, path, kind: "text", default: defaultValue, meaning) { $0.string($1, key: $2) }
    }

    /// An integer within `range`.
    static func integer(
        _ name: String, _ path: WritableKeyPath<ConfigFile, Int?> & Sendable, range: ClosedRange<Int>,
        default defaultValue: String, _ meaning: String
    ) -> ConfigKey {
        let kind =
            range.upperBound == Int.max ? "integer ≥ \(range.lowerBound)" : "integer \(range.lowerBound)–\(range.upperBound)"
        return value(name, path, kind: kind, default: defaultValue, meaning) { $0.integer($1, key: $2, range: range) }
    }

    /// A limit: an integer ≥ 1 (`ServeSettings.limitRange`).
    static func limit(
        _ name: String, _ path: WritableKeyPath<ConfigFile, Int?> & Sendable, default defaultValue: Int, _ meaning: String
    ) -> ConfigKey {
        integer(name, path, range: ServeSettings.limitRange, default: "`\(defaultValue)`", meaning)
    }

    /// `true` or `false`, for a setting left unset (`nil`) when the file does not give it.
    static func flag(
        _ name: String, _ path: WritableKeyPath<ConfigFile, Bool?> & Sendable, default defaultValue: Bool,
        _ meaning: String
    ) -> ConfigKey {
        value(name, path, kind: "bool", default: "`\(defaultValue)`", meaning) { $0.boolean($1, key: $2) }
    }

    /// `true` or `false`; the default is the settings type's own.
    static func flag(_ name: String, _ path: WritableKeyPath<ConfigFile, Bool> & Sendable, _ meaning: String) -> ConfigKey {
        value(name, path, kind: "bool", default: "`\(ConfigFile()[keyPath: path])`", meaning) { $0.boolean($1, key: $2) }
    }

    /// A number within `bound` (the setting's one bound); the default is the settings type's own.
    static func number(
        _ name: String, _ path: WritableKeyPath<ConfigFile, Double> & Sendable, _ bound: NumberBound, _ meaning: String
    ) -> ConfigKey {
        let defaultValue = ConfigReference.number(ConfigFile()[keyPath: path])
        return value(name, path, kind: "number \(bound.text)", default: defaultValue, meaning) {
            $0.number($1, key: $2, within: bound)
        }
    }

    /// One of a fixed set of names; the default is the settings type's own.
    static func choice<T: RawRepresentable & CaseIterable & Sendable>(
        _ name: String, _ path: WritableKeyPath<ConfigFile, T> & Sendable, _ meaning: String
    ) -> ConfigKey where T.RawValue == String {
        value(name, path, kind: choices(T.self), default: "`\(ConfigFile()[keyPath: path].rawValue)`", meaning) {
            $0.choice($1, key: $2, T.self)
        }
    }

    /// One of a fixed set of names, for a setting left unset (`nil`) when not given.
    static func choice<T: RawRepresentable & CaseIterable & Sendable>(
        _ name: String, _ path: WritableKeyPath<ConfigFile, T?> & Sendable, default defaultValue: T, _ meaning: String
    ) -> ConfigKey where T.RawValue == String {
        value(name, path, kind: choices(T.self), default: "`\(defaultValue.rawValue)`", meaning) {
            $0.choice($1, key: $2, T.self)
        }
    }

    /// A nested section, documented as its keys (`limits.maxPointers`).
    static func section(_ name: String, _ section: ConfigSection) -> ConfigKey {
        ConfigKey(name: name, kind: "mapping", defaultValue: "", meaning: "", reading: .section(section))
    }

    /// A key of a hook rule (read by `readHook`).
    static func rule(_ name: String, kind: String, default defaultValue: String = "", _ meaning: String) -> ConfigKey {
        ConfigKey(name: name, kind: kind, defaultValue: defaultValue, meaning: meaning, reading: .byRule)
    }

    init(
        name: String, kind: String, defaultValue: String, meaning: String,
        read: @escaping @Sendable (inout ConfigReader, YAMLNode, String, inout ConfigFile) -> Void
    ) {
        self.init(name: name, kind: kind, defaultValue: defaultValue, meaning: meaning, reading: .value(read))
    }

    private static func choices<T: RawRepresentable & CaseIterable>(_: T.Type) -> String where T.RawValue == String {
        T.allCases.map { "`\($0.rawValue)`" }.joined(separator: " / ")
    }
}
