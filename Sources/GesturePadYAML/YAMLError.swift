/// Why a text is not one YAML document: libyaml's reader, scanner or parser problems (with
/// libyaml's own words and marks), an alias to no anchor or a second document, or a mapping
/// that names a key twice.
public enum YAMLError: Error, Sendable, CustomStringConvertible {
    /// libyaml ran out of memory.
    case memory
    /// The characters themselves: `problem` at `offset` (in characters, when on a character).
    case reader(problem: String, offset: Int?, value: Int32, yaml: String)
    case scanner(context: Context?, problem: String, YAMLMark, yaml: String)
    case parser(context: Context?, problem: String, YAMLMark, yaml: String)
    case composer(context: Context?, problem: String, YAMLMark, yaml: String)
    /// The keys that appear more than once in one mapping, sorted; `context.mark` is where the
    /// first of them first appears.
    case duplicatedKeysInMapping(duplicates: [String], context: Context)

    /// What libyaml was reading when it met the problem, and where that began.
    public struct Context: Sendable, CustomStringConvertible {
        public let text: String
        public let mark: YAMLMark

        public var description: String { text + " in line \(mark.line), column \(mark.column)\n" }
    }

    public var description: String {
        switch self {
        case .memory:
            return "Memory error"
        case .reader(let problem, let offset, let value, let yaml):
            guard let offset, let place = TextLines(yaml).place(ofCharacter: offset) else {
                return "\(problem) at offset: \(String(describing: offset)), value: \(value)"
            }
            return "\(place.line + 1):\(place.column + 1): error: reader: \(problem):\n"
                + TextLines.endingWithNewline(place.contents) + String(repeating: " ", count: place.column) + "^"
        case .scanner(let context, let problem, let mark, let yaml):
            return "\(mark): error: scanner: \(context?.description ?? "")\(problem):\n" + TextLines(yaml).snippet(at: mark)
        case .parser(let context, let problem, let mark, let yaml):
            return "\(mark): error: parser: \(context?.description ?? "")\(problem):\n" + TextLines(yaml).snippet(at: mark)
        case .composer(let context, let problem, let mark, let yaml):
            return "\(mark): error: composer: \(context?.description ?? "")\(problem):\n" + TextLines(yaml).snippet(at: mark)
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.sorted().map { "'\($0)'" }.joined(separator: ", ")
            return "Parser: expected all keys to be unique but found the following duplicated key(s): \(keys).\n"
                + "Context:\n\(context.description)"
        }
    }
}
