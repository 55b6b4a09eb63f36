/// A scalar's value as a number or a truth value, the way YAML 1.1 writes them: `0x1F`,
/// `0o17`, `017`, `0b101`, `1_000`, `1:30` (sexagesimal), `.inf`, `yes` / `off`. Only plain
/// (or explicitly tagged, unquoted) scalars are numbers.
extension YAMLNode {
    public var int: Int? {
        guard let scalar, scalar.style == .plain else { return nil }
        let text = scalar.string.filter { $0 != "_" }
        if text == "0" { return 0 }
        let negative = text.hasPrefix("-")
        let digits = text.dropFirst(negative || text.hasPrefix("+") ? 1 : 0)
        let sign = negative ? "-" : ""
        for (prefix, radix) in [("0x", 16), ("0b", 2), ("0o", 8), ("0", 8)] where digits.hasPrefix(prefix) {
            return Int(sign + digits.dropFirst(prefix.count), radix: radix)
        }
        if digits.contains(":") { return Self.sexagesimal(text) as Int? }
        return Int(text)
    }

    public var float: Double? {
        guard let scalar, scalar.style == .plain else { return nil }
        switch scalar.string.lowercased() {
        case ".inf", "+.inf": return .infinity
        case "-.inf": return -.infinity
        case ".nan": return .nan
        default:
            let text = scalar.string.filter { $0 != "_" }
            if text.contains(":") {
                return Self.sexagesimal(text) as Double?
            }
            return Double(text)
        }
    }

    public var bool: Bool? {
        guard let scalar, scalar.tag != .str else { return nil }
        switch scalar.string.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: return nil
        }
    }

    /// `[-+]a:b:c` as ±(a * 60² + b * 60 + c); nil when a part is no integer or the value
    /// overflows.
    private static func sexagesimal(_ text: String) -> Int? {
        let (sign, parts) = signAndParts(text)
        var value = 0
        var base = 1
        for (index, part) in parts.reversed().enumerated() {
            guard let digit = Int(part, radix: 10) else { return nil }
            if index > 0 {
                let (next, overflow) = base.multipliedReportingOverflow(by: 60)
                guard !overflow else { return nil }
                base = next
            }
            let (term, termOverflow) = digit.multipliedReportingOverflow(by: base)
            let (sum, sumOverflow) = value.addingReportingOverflow(term)
            guard !termOverflow, !sumOverflow else { return nil }
            value = sum
        }
        return sign * value
    }

    /// `[-+]a:b:c` as ±(a * 60² + b * 60 + c), each part a decimal number.
    private static func sexagesimal(_ text: String) -> Double? {
        let (sign, parts) = signAndParts(text)
        var value = 0.0
        var base = 1.0
        for part in parts.reversed() {
            guard let digit = Double(part) else { return nil }
            value += digit * base
            base *= 60
        }
        return sign < 0 ? -value : value
    }

    private static func signAndParts(_ text: String) -> (sign: Int, parts: [String]) {
        var rest = Substring(text)
        var sign = 1
        if rest.hasPrefix("-") {
            sign = -1
            rest = rest.dropFirst()
        } else if rest.hasPrefix("+") {
            rest = rest.dropFirst()
        }
        return (sign, rest.split(separator: ":", omittingEmptySubsequences: false).map(String.init))
    }
}
