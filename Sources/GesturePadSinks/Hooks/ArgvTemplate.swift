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

    /// The argument for `event`. A placeholder the event does not have expands to nothing
    /// (`check-config` refuses such rules, so this only happens for hand-built rules).
    public func expand(for event: GestureEvent) -> String {
        var out = ""
        for part in parts {
            switch part {
            case .literal(let text): out += text
            case .field(let name, let integer): out += Self.text(of: name, in: event, integer: integer) ?? ""
            }
        }
        return out
    }

    /// The text of a common or own field of `event`; `nil` when it has none of that name.
    public static func text(of field: String, in event: GestureEvent, integer: Bool = false) -> String? {
        func number(_ d: Double) -> String {
            integer ? String(Int64(d.rounded())) : GestureJSON.numberText(d)
        }
        switch field {
        case "gesture": return event.gesture.name
        case "phase": return event.phase.name
        case "t": return number(event.t)
        case "x": return number(event.x)
        case "y": return number(event.y)
        case "pointers": return String(event.pointers)
        default: break
        }
        var found: String?
        event.forEachField { name, value in
            guard found == nil, name.description == field else { return }
            switch value {
            case .number(let d): found = number(d)
            case .integer(let i): found = String(i)
            case .bool(let b): found = b ? "true" : "false"
            case .name(let s): found = s
            }
        }
        return found
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
