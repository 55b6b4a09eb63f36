import GestureEngine
import Yams

/// Walks the YAML node tree of a configuration file (Yams' Node API, which keeps line numbers)
/// and builds a `ConfigFile`, collecting every problem instead of stopping at the first.
struct ConfigReader {
    private(set) var issues: [ConfigIssue] = []

    static let topKeys = ["server", "gestures", "log", "hooks", "control"]
    static let serverKeys = ["host", "port", "public", "token", "auth", "limits"]
    static let limitKeys = ["maxConnections", "maxMessageBytes", "maxMessagesPerSecond", "maxErrorsInARow", "maxPointers"]
    static let logKeys = ["json", "verbose", "color", "terminal", "record"]

    mutating func read(yaml: String) -> ConfigFile {
        var config = ConfigFile()
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch let error as YamlError {
            report(yamlError: error)
            return config
        } catch {
            issues.append(ConfigIssue(line: 0, column: 0, message: "not valid YAML: \(error)"))
            return config
        }
        guard let root else { return config }  // an empty file is an empty configuration
        if case .scalar(let s) = root, s.string.isEmpty || tagName(root) == .null { return config }
        guard let mapping = mapping(root, what: "the configuration file") else { return config }
        for (key, value) in mapping {
            guard let name = keyName(key, allowed: Self.topKeys, section: "top level") else { continue }
            switch name {
            case "server": readServer(value, into: &config.server)
            case "gestures": readGestures(value, into: &config.gestures)
            case "log": readLog(value, into: &config.log)
            case "hooks": config.hooks = readHooks(value)
            case "control": readControl(value, into: &config.control)
            default: break
            }
        }
        return config
    }

    // MARK: Sections

    private mutating func readServer(_ node: Node, into server: inout ServerSection) {
        guard let mapping = mapping(node, what: "server") else { return }
        for (key, value) in mapping {
            guard let name = keyName(key, allowed: Self.serverKeys, section: "server") else { continue }
            switch name {
            case "host": server.host = string(value, key: "server.host")
            case "port": server.port = integer(value, key: "server.port", range: 0...65_535)
            case "public": server.publicDir = string(value, key: "server.public")
            case "token": server.token = string(value, key: "server.token")
            case "auth": server.auth = boolean(value, key: "server.auth")
            case "limits": readLimits(value, into: &server)
            default: break
            }
        }
    }

    private mutating func readLimits(_ node: Node, into server: inout ServerSection) {
        guard let mapping = mapping(node, what: "server.limits") else { return }
        for (key, value) in mapping {
            guard let name = keyName(key, allowed: Self.limitKeys, section: "server.limits") else { continue }
            let number = integer(value, key: "server.limits.\(name)", range: 1...Int.max)
            switch name {
            case "maxConnections": server.maxConnections = number
            case "maxMessageBytes": server.maxMessageBytes = number
            case "maxMessagesPerSecond": server.maxMessagesPerSecond = number
            case "maxErrorsInARow": server.maxErrorsInARow = number
            case "maxPointers": server.maxPointers = number
            default: break
            }
        }
    }

    private mutating func readGestures(_ node: Node, into gestures: inout GestureConfig) {
        guard let mapping = mapping(node, what: "gestures") else { return }
        for (key, value) in mapping {
            guard let name = keyName(key, allowed: GestureConfig.keys, section: "gestures") else { continue }
            guard let number = number(value, key: "gestures.\(name)") else { continue }
            do {
                try gestures.set(name, to: number)
            } catch {
                add(value, "gestures.\(name): \(error.description)")
            }
        }
    }

    private mutating func readLog(_ node: Node, into log: inout LogSection) {
        guard let mapping = mapping(node, what: "log") else { return }
        for (key, value) in mapping {
            guard let name = keyName(key, allowed: Self.logKeys, section: "log") else { continue }
            switch name {
            case "json": log.jsonPath = string(value, key: "log.json")
            case "verbose": log.verbose = boolean(value, key: "log.verbose")
            case "terminal": log.terminal = boolean(value, key: "log.terminal")
            case "record": log.recordDirectory = string(value, key: "log.record")
            case "color":
                if tagName(value) == .str, value.scalar?.string == "auto" {
                    log.color = nil
                } else if tagName(value) == .bool, let b = value.bool {
                    log.color = b
                } else {
                    add(value, "log.color must be true, false or auto, not \(describe(value))")
                }
            default: break
            }
        }
    }

    // MARK: Typed values

    mutating func add(_ node: Node, _ message: String) {
        issues.append(ConfigIssue(line: node.mark?.line ?? 0, column: node.mark?.column ?? 0, message: message))
    }

    private mutating func report(yamlError: YamlError) {
        switch yamlError {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let where_ = context.map { " (\($0.text))" } ?? ""
            issues.append(ConfigIssue(line: mark.line, column: mark.column, message: "not valid YAML: \(problem)\(where_)"))
        case .duplicatedKeysInMapping(let duplicates, let context):
            issues.append(
                ConfigIssue(
                    line: context.mark.line, column: context.mark.column,
                    message: "duplicate key(s) \(duplicates.map { "'\($0)'" }.joined(separator: ", "))"))
        default:
            issues.append(ConfigIssue(line: 0, column: 0, message: "not valid YAML: \(yamlError)"))
        }
    }

    /// A short description of a node for "wrong type" messages.
    func describe(_ node: Node) -> String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        case .scalar(let s):
            switch tagName(node) {
            case .int: return "the integer \(s.string)"
            case .float: return "the number \(s.string)"
            case .bool: return "the boolean \(s.string)"
            case .null: return "an empty value"
            default: return "the text '\(s.string)'"
            }
        }
    }

    /// A section's mapping; an empty section (`log:` with every line commented out) is empty.
    mutating func mapping(_ node: Node, what: String) -> Node.Mapping? {
        if let m = node.mapping { return m }
        if tagName(node) == .null { return nil }
        add(node, "\(what) must be a mapping (key: value lines), not \(describe(node))")
        return nil
    }

    /// The key's name when it is one of `allowed`; reports unknown keys with a suggestion.
    mutating func keyName(_ key: Node, allowed: [String], section: String) -> String? {
        guard let name = key.scalar?.string else {
            add(key, "keys in \(section) must be plain names, not \(describe(key))")
            return nil
        }
        guard allowed.contains(name) else {
            var message = "unknown key '\(name)' in \(section)"
            if let guess = Suggestion.closest(to: name, in: allowed) { message += " (did you mean '\(guess)'?)" }
            message += "; known keys: \(allowed.joined(separator: ", "))"
            add(key, message)
            return nil
        }
        return name
    }

    mutating func string(_ node: Node, key: String) -> String? {
        guard let s = node.scalar, [.str, .int, .float].contains(tagName(node)) else {
            add(node, "\(key) must be text, not \(describe(node))")
            return nil
        }
        guard !s.string.contains("\0") else {
            add(node, "\(key) must not contain a NUL character")
            return nil
        }
        return s.string
    }

    mutating func integer(_ node: Node, key: String, range: ClosedRange<Int>) -> Int? {
        guard tagName(node) == .int, let value = node.int else {
            add(node, "\(key) must be an integer, not \(describe(node))")
            return nil
        }
        guard range.contains(value) else {
            let upper = range.upperBound == Int.max ? "" : " and ≤ \(range.upperBound)"
            add(node, "\(key) must be ≥ \(range.lowerBound)\(upper), not \(value)")
            return nil
        }
        return value
    }

    mutating func number(_ node: Node, key: String) -> Double? {
        guard tagName(node) == .int || tagName(node) == .float, let value = node.float, value.isFinite else {
            add(node, "\(key) must be a number, not \(describe(node))")
            return nil
        }
        return value
    }

    mutating func boolean(_ node: Node, key: String) -> Bool? {
        guard tagName(node) == .bool, let value = node.bool else {
            add(node, "\(key) must be true or false, not \(describe(node))")
            return nil
        }
        return value
    }
}

extension ConfigReader {
    /// The resolved tag of a node (`!!int`, `!!str`, …): how YAML typed the value.
    func tagName(_ node: Node) -> Tag.Name {
        Tag.Name(rawValue: node.tag.rawValue)
    }
}
