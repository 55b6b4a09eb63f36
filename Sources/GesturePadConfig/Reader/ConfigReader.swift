import GestureControl
import GesturePadYAML

/// Walks the YAML node tree of a configuration file (GesturePadYAML's nodes over libyaml, which
/// keep line numbers) and builds a `ConfigFile`, collecting every problem instead of stopping at
/// the first.
struct ConfigReader {
    private(set) var issues: [ConfigIssue] = []

    mutating func read(yaml: String) -> ConfigFile {
        var config = ConfigFile()
        let root: YAMLNode?
        do {
            root = try YAML.compose(yaml: yaml)
        } catch {
            report(yamlError: error)
            return config
        }
        guard let root else { return config }  // an empty file is an empty configuration
        if case .scalar(let s) = root, s.string.isEmpty || tagName(root) == .null { return config }
        read(root, section: ConfigKeys.top, into: &config)
        return config
    }

    /// Reads a section's mapping key by key, through its table.
    mutating func read(_ node: YAMLNode, section: ConfigSection, into config: inout ConfigFile) {
        guard let mapping = mapping(node, what: section.what) else { return }
        for (keyNode, value) in mapping {
            guard let name = keyName(keyNode, allowed: section.names, section: section.label),
                let key = section.key(name)
            else { continue }
            switch key.reading {
            case .value(let store): store(&self, value, section.fullName(name), &config)
            case .section(let inner): read(value, section: inner, into: &config)
            case .byRule: break  // only in a hook rule, which `readHook` reads
            }
        }
    }

    // MARK: Typed values

    mutating func add(_ node: YAMLNode, _ message: String) {
        issues.append(ConfigIssue(line: node.mark.line, column: node.mark.column, message: message))
    }

    private mutating func report(yamlError: YAMLError) {
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
        case .memory, .reader:
            issues.append(ConfigIssue(line: 0, column: 0, message: "not valid YAML: \(yamlError)"))
        }
    }

    /// A short description of a node for "wrong type" messages.
    func describe(_ node: YAMLNode) -> String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
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
    mutating func mapping(_ node: YAMLNode, what: String) -> YAMLNode.Mapping? {
        if let m = node.mapping { return m }
        if tagName(node) == .null { return nil }
        add(node, "\(what) must be a mapping (key: value lines), not \(describe(node))")
        return nil
    }

    /// The key's name when it is one of `allowed`; reports unknown keys with a suggestion.
    mutating func keyName(_ key: YAMLNode, allowed: [String], section: String) -> String? {
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

    mutating func string(_ node: YAMLNode, key: String) -> String? {
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

    mutating func integer(_ node: YAMLNode, key: String, range: ClosedRange<Int>) -> Int? {
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

    mutating func number(_ node: YAMLNode, key: String) -> Double? {
        guard tagName(node) == .int || tagName(node) == .float, let value = node.float, value.isFinite else {
            add(node, "\(key) must be a number, not \(describe(node))")
            return nil
        }
        return value
    }

    /// A number within `bound`.
    mutating func number(_ node: YAMLNode, key: String, within bound: NumberBound) -> Double? {
        guard let value = number(node, key: key) else { return nil }
        guard bound.contains(value) else {
            add(node, "\(key) must be \(bound.text), not \(value)")
            return nil
        }
        return value
    }

    mutating func choice<T: RawRepresentable & CaseIterable>(_ node: YAMLNode, key: String, _ type: T.Type) -> T?
    where T.RawValue == String {
        let names = T.allCases.map(\.rawValue)
        guard let text = node.scalar?.string, tagName(node) == .str, let value = T(rawValue: text) else {
            add(node, "\(key) must be one of \(names.joined(separator: ", ")), not \(describe(node))")
            return nil
        }
        return value
    }

    mutating func boolean(_ node: YAMLNode, key: String) -> Bool? {
        guard tagName(node) == .bool, let value = node.bool else {
            add(node, "\(key) must be true or false, not \(describe(node))")
            return nil
        }
        return value
    }
}

extension ConfigReader {
    /// The resolved tag of a node (`!!int`, `!!str`, …): how YAML typed the value.
    func tagName(_ node: YAMLNode) -> YAMLTag {
        node.tag
    }
}
