import Foundation
import GestureControl
import GestureEngine
import GestureProtocol
import Testing

@testable import GesturePadConfig

/// The key tables: the one source of the reader's keys, its suggestions and the docs' tables.
@Suite struct ConfigKeysTests {
    /// The sections the reader walks through `read(_:section:into:)`, with their YAML prefixes.
    private static var walked: [(section: ConfigSection, yaml: (String) -> String)] {
        [
            (ConfigKeys.server, { "server:\n  \($0): 1\n" }),
            (ConfigKeys.limits, { "server:\n  limits:\n    \($0): 1\n" }),
            (ConfigKeys.pairing, { "server:\n  pairing:\n    \($0): 1\n" }),
            (ConfigKeys.gestures, { "gestures:\n  \($0): 1\n" }),
            (ConfigKeys.log, { "log:\n  \($0): 1\n" }),
            (ConfigKeys.control, { "control:\n  \($0): 1\n" }),
        ]
    }

    /// A key misspelt by one letter is refused with a "did you mean" naming the table's key.
    @Test func suggestionsComeFromTheTables() throws {
        for (section, yaml) in Self.walked {
            for key in section.names {
                let typo = String(key.dropLast()) + "Q"
                do {
                    _ = try ConfigFile.parse(yaml: yaml(typo))
                    Issue.record("\(typo) accepted")
                } catch {
                    let message = error.issues.first?.message ?? ""
                    #expect(message.contains("did you mean '\(key)'?"), "\(message)")
                    #expect(message.hasSuffix("known keys: \(section.names.joined(separator: ", "))"), "\(message)")
                }
            }
        }
    }

    /// Every threshold of the engine is a key of `gestures:`, in the engine's order.
    @Test func gestureKeysAreTheEngines() {
        #expect(ConfigKeys.gestures.names == GestureConfig.keys)
        #expect(GestureConfig.keys == GestureConfig.fields.map(\.key))
        #expect(Set(GestureConfig.keys).count == GestureConfig.keys.count)
    }

    /// A threshold set through its key is read back through it, and its rule refuses what
    /// the engine refuses.
    @Test func gestureFieldsRoundTrip() throws {
        for (i, field) in GestureConfig.fields.enumerated() {
            var config = GestureConfig()
            let value = field.rule == .fraction ? 0.5 : Double(i + 1)
            try config.set(field.key, to: value)
            #expect(config[keyPath: field.keyPath] == value && config.value(forKey: field.key) == value)
            #expect(throws: GestureConfigError.self) { try config.set(field.key, to: -1) }
            if field.rule != .nonNegative {
                #expect(throws: GestureConfigError.self) { try config.set(field.key, to: 0) }
            }
        }
        var config = GestureConfig()
        #expect(throws: GestureConfigError.unknownKey("nope")) { try config.set("nope", to: 1) }
    }

    /// The defaults the tables show are the settings types' own.
    @Test func defaultsComeFromTheSettingsTypes() {
        #expect(ConfigKeys.limits.key("maxPointers")?.defaultValue == "`\(ProtocolLimits().maxPointers)`")
        #expect(ConfigKeys.control.key("dragLockTimeout")?.defaultValue == "\(Int(ControlSettings().dragLockTimeout))")
        #expect(ConfigKeys.control.key("naturalScroll")?.defaultValue == "`\(ControlSettings().naturalScroll)`")
        #expect(ConfigKeys.gestures.key("slop")?.defaultValue == "\(Int(GestureConfig().slop)) px")
        #expect(ConfigKeys.gestures.key("decelerationRate")?.defaultValue == "\(GestureConfig().decelerationRate) per ms")
    }

    /// Each section's table in the docs is the generated one (`check-config --print-keys`),
    /// so the docs cannot drift from the keys; every section has its table somewhere.
    @Test func docsTablesAreGenerated() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let docs = root.appendingPathComponent("docs")
        let files = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }
        let texts = try files.map { try String(contentsOf: docs.appendingPathComponent($0), encoding: .utf8) }
        for section in ConfigKeys.sections {
            let start = ConfigReference.startMarker(section) + "\n"
            var found = 0
            for text in texts {
                var rest = text[...]
                while let open = rest.range(of: start) {
                    let body = rest[open.upperBound...]
                    guard let close = body.range(of: ConfigReference.endMarker) else {
                        Issue.record("\(section.path ?? "") table without its end marker")
                        break
                    }
                    #expect(String(body[..<close.lowerBound]) == ConfigReference.table(section), "\(section.path ?? "")")
                    found += 1
                    rest = body[close.upperBound...]
                }
            }
            #expect(found >= 1, "no table of \(section.path ?? "") in docs/")
        }
    }

    /// The thresholds table of docs/gestures.md (which also says where each default comes
    /// from) has every key of `gestures:`, in order, with the generated default.
    @Test func gesturesDocHasTheDefaults() throws {
        let text = try Self.doc("docs/gestures.md")
        let table = try #require(text.range(of: "## Thresholds and their defaults")).upperBound
        let rows = Self.rows(String(text[table...]).components(separatedBy: "\n\n**Velocity")[0])
        #expect(rows.map { $0[0] } == GestureConfig.keys.map { "`\($0)`" })
        for row in rows {
            let key = row[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            #expect(row[1] == ConfigKeys.gestures.key(key)?.defaultValue, "\(key)")
        }
    }

    /// The flag tables of README.md and docs/server.md give the numeric defaults the key
    /// tables give (those are the settings types' own).
    @Test func flagTablesHaveTheDefaults() throws {
        let readme = Self.rows(try Self.doc("README.md"))
        let server = Self.rows(try Self.doc("docs/server.md"))
        var checked = 0
        for (prefix, section) in [("", ConfigKeys.server), ("limits.", ConfigKeys.limits)] {
            for key in section.keys where key.defaultValue.dropFirst().dropLast().allSatisfy(\.isNumber) {
                guard let flag = key.meaning.firstRange(of: /`(--[a-z-]+)`/).map({ key.meaning[$0].dropFirst().dropLast() })
                else { continue }
                let inReadme = readme.first { $0[0].hasPrefix("`\(flag) ") }
                #expect(inReadme?[1] == key.defaultValue, "README \(flag)")
                let inServer = server.first { $0.count > 2 && $0[1] == "`\(prefix)\(key.name)`" }
                #expect(inServer?[2] == key.defaultValue, "server.md \(key.name)")
                checked += 1
            }
        }
        #expect(checked == 6)
    }

    /// The fuzzer's dictionary (Fuzz/Dictionaries/FuzzConfig.dict) has every key of every
    /// table, so FuzzConfig reaches each key's reader.
    @Test func fuzzDictionaryHasEveryKey() throws {
        let entries = Set(try Self.doc("Fuzz/Dictionaries/FuzzConfig.dict").split(separator: "\n").map(String.init))
        for section in [ConfigKeys.top, ConfigKeys.limits, ConfigKeys.pairing] + ConfigKeys.sections {
            for name in section.names {
                #expect(entries.contains("\"\(name):\""), "\(name)")
            }
        }
    }

    private static func doc(_ path: String) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The cells of every Markdown table row whose first cell is code (`` `x` ``).
    private static func rows(_ text: some StringProtocol) -> [[String]] {
        text.split(separator: "\n").filter { $0.hasPrefix("| `") }.map { line in
            line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }
}
