import GestureEngine

/// One argument of a `run` hook's argv: literal text with `{field}` placeholders, replaced by
/// that event's numeric or enumerated fields only (never client text such as the session id).
/// `{field:int}` rounds a number to an integer; `{{` and `}}` are literal braces.
public struct ArgvTemplate: Sendable, Hashable {
    /// A piece of the argument.
    public enum Part: Sendable, Hashable {
        case literal(String)
        case field(String, integer: Bool)
    }

    public let parts: [Part]

    /// Whether the argument has no placeholder.
    public var isLiteral: Bool { parts.allSatisfy { if case .literal = $0 { true } else { false } } }

    /// The placeholder names used.
    public var fields: [String] {
        parts.compactMap { if case .field(let name, _) = $0 { name } else { nil } }
    }

    /// Parses an argument; throws a message for an unclosed brace or a bad placeholder.
    public init(parsing text: String) throws(ArgvTemplateError) {
        var parts: [Part] = []
        var literal = ""
        var index = text.startIndex
        while index < text.endIndex {
            let ch = text[index]
            let next = text.index(after: index)
            if ch == "{", next < text.endIndex, text[next] == "{" {
                literal.append("{")
                index = text.index(after: next)
            } else if ch == "}", next < text.endIndex, text[next] == "}" {
                literal.append("}")
                index = text.index(after: next)
            } else if ch == "{" {
                guard let close = text[next...].firstIndex(of: "}") else {
                    throw .unclosed(text)
                }
                var name = String(text[next..<close])
                var integer = false
                if name.hasSuffix(":int") {
                    integer = true
                    name.removeLast(4)
                }
                guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                    throw .badPlaceholder(String(text[index...close]))
                }
                if !literal.isEmpty { parts.append(.literal(literal)); literal = "" }
                parts.append(.field(name, integer: integer))
                index = text.index(after: close)
            } else if ch == "}" {
                throw .strayBrace(text)
            } else {
                literal.append(ch)
                index = next
            }
        }
        if !literal.isEmpty || parts.isEmpty { parts.append(.literal(literal)) }
        self.parts = parts
    }
}

/// Why an argv template was refused.
public enum ArgvTemplateError: Error, Equatable, Sendable, CustomStringConvertible {
    case unclosed(String)
    case strayBrace(String)
    case badPlaceholder(String)

    public var description: String {
        switch self {
        case .unclosed(let t): "unclosed '{' in argument '\(t)' (write '{{' for a literal brace)"
        case .strayBrace(let t): "stray '}' in argument '\(t)' (write '}}' for a literal brace)"
        case .badPlaceholder(let p): "bad placeholder '\(p)': expected {field} or {field:int}"
        }
    }
}
