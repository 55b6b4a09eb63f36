/// The core schema's patterns for plain scalars (YAML 1.1's regular expressions for `!!bool`,
/// `!!int`, `!!float` and `!!timestamp`), each matched against the whole text, Unicode scalar
/// by Unicode scalar. Hand-written: every plain scalar of a file goes through them.
enum ScalarPatterns {
    static func bool(in text: String) -> Bool {
        [
            "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
            "on", "On", "ON", "off", "Off", "OFF",
        ].contains(text)
    }

    /// `[-+]?` then `0b[01_]+`, `0o?[0-7_]+`, `0`, `[1-9][0-9_]*`, `0x[0-9a-fA-F_]+` or
    /// `[1-9][0-9_]*(:[0-5]?[0-9])+`.
    static func int(in text: String) -> Bool {
        var scan = Scan(text)
        scan.sign()
        if scan.take("0") {
            if scan.atEnd { return true }
            if scan.take("b") { return scan.many(min: 1) { $0 == "0" || $0 == "1" || $0 == "_" } && scan.atEnd }
            if scan.take("x") { return scan.many(min: 1) { $0.properties.isASCIIHexDigit || $0 == "_" } && scan.atEnd }
            _ = scan.take("o")
            return scan.many(min: 1) { ("0"..."7").contains($0) || $0 == "_" } && scan.atEnd
        }
        guard scan.one({ ("1"..."9").contains($0) }) else { return false }
        scan.many { isDigit($0) || $0 == "_" }
        if scan.atEnd { return true }
        return scan.sexagesimalParts() && scan.atEnd
    }

    /// `[-+]?[0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9]+)?`, `\.[0-9_]+([eE][-+][0-9]+)?`,
    /// `[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*`, `[-+]?\.(inf|Inf|INF)` or `\.(nan|NaN|NAN)`.
    static func float(in text: String) -> Bool {
        if [".nan", ".NaN", ".NAN"].contains(text) { return true }
        var scan = Scan(text)
        let signed = scan.sign()
        if scan.take(".") {
            if scan.rest(is: ["inf", "Inf", "INF"]) { return true }
            guard !signed, scan.many(min: 1, { isDigit($0) || $0 == "_" }) else { return false }
            if scan.atEnd { return true }
            return scan.exponent(signRequired: true) && scan.atEnd
        }
        guard scan.one(isDigit) else { return false }
        scan.many { isDigit($0) || $0 == "_" }
        if scan.peek == ":" {
            guard scan.sexagesimalParts(), scan.take(".") else { return false }
            scan.many { isDigit($0) || $0 == "_" }
            return scan.atEnd
        }
        if scan.take(".") { scan.many { isDigit($0) || $0 == "_" } }
        if scan.atEnd { return true }
        return scan.exponent(signRequired: false) && scan.atEnd
    }

    /// `YYYY-MM-DD`, or `YYYY-M-D` with a time: `[Tt]` or blanks, `h:mm:ss`, a fraction, and a
    /// zone (`Z`, `±h`, `±h:mm`) after optional blanks.
    static func timestamp(in text: String) -> Bool {
        var scan = Scan(text)
        guard scan.digits(4...4), scan.take("-") else { return false }
        let dateOnly = scan
        var date = dateOnly
        if date.digits(2...2), date.take("-"), date.digits(2...2), date.atEnd { return true }
        guard scan.digits(1...2), scan.take("-"), scan.digits(1...2) else { return false }
        guard scan.take("T") || scan.take("t") || scan.many(min: 1, { $0 == " " || $0 == "\t" }) else { return false }
        guard scan.digits(1...2), scan.take(":"), scan.digits(2...2), scan.take(":"), scan.digits(2...2) else { return false }
        if scan.take(".") { scan.many(isDigit) }
        if scan.atEnd { return true }
        scan.many { $0 == " " || $0 == "\t" }
        if scan.take("Z") { return scan.atEnd }
        guard scan.take("-") || scan.take("+"), scan.digits(1...2) else { return false }
        if scan.atEnd { return true }
        return scan.take(":") && scan.digits(2...2) && scan.atEnd
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    /// A position in a text's Unicode scalars.
    private struct Scan {
        let scalars: [Unicode.Scalar]
        var index = 0

        init(_ text: String) { scalars = Array(text.unicodeScalars) }

        var atEnd: Bool { index == scalars.count }
        var peek: Unicode.Scalar? { atEnd ? nil : scalars[index] }

        mutating func take(_ scalar: Unicode.Scalar) -> Bool {
            guard peek == scalar else { return false }
            index += 1
            return true
        }

        /// An optional `-` or `+`; whether there was one.
        @discardableResult
        mutating func sign() -> Bool { take("-") || take("+") }

        mutating func one(_ matches: (Unicode.Scalar) -> Bool) -> Bool {
            guard let next = peek, matches(next) else { return false }
            index += 1
            return true
        }

        /// As many matching scalars as there are; whether there were at least `min`.
        @discardableResult
        mutating func many(min: Int = 0, _ matches: (Unicode.Scalar) -> Bool) -> Bool {
            let start = index
            while let next = peek, matches(next) { index += 1 }
            return index - start >= min
        }

        /// A run of digits whose length is in `count` (the run ends at the first non-digit).
        mutating func digits(_ count: ClosedRange<Int>) -> Bool {
            let start = index
            many(ScalarPatterns.isDigit)
            return count.contains(index - start)
        }

        /// `(:[0-5]?[0-9])+`: each part one digit, or two with the first 0–5.
        mutating func sexagesimalParts() -> Bool {
            var parts = 0
            while take(":") {
                let start = index
                many(ScalarPatterns.isDigit)
                let run = index - start
                guard run == 1 || (run == 2 && ("0"..."5").contains(scalars[start])) else { return false }
                parts += 1
            }
            return parts > 0
        }

        /// `[eE]` and a sign (`[-+]`, or `[-+]?` when not required) and `[0-9]+`.
        mutating func exponent(signRequired: Bool) -> Bool {
            guard take("e") || take("E") else { return false }
            guard sign() || !signRequired else { return false }
            return many(min: 1, ScalarPatterns.isDigit)
        }

        /// Whether the rest of the text is one of `words`.
        mutating func rest(is words: [String]) -> Bool {
            words.contains(String(String.UnicodeScalarView(scalars[index...])))
        }
    }
}
