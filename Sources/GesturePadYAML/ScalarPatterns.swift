/// The core schema's patterns for plain scalars (YAML 1.1's regular expressions for `!!bool`,
/// `!!int`, `!!float` and `!!timestamp`), each matched against the whole text, Unicode scalar
/// by Unicode scalar.
enum ScalarPatterns {
    static func bool(in text: String) -> Bool {
        [
            "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
            "on", "On", "ON", "off", "Off", "OFF",
        ].contains(text)
    }

    static func int(in text: String) -> Bool {
        let pattern =
            #/[-+]?0b[0-1_]+|[-+]?0o?[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+/#
        return text.wholeMatch(of: pattern.matchingSemantics(.unicodeScalar)) != nil
    }

    static func float(in text: String) -> Bool {
        let pattern =
            #/[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)/#
        return text.wholeMatch(of: pattern.matchingSemantics(.unicodeScalar)) != nil
    }

    static func timestamp(in text: String) -> Bool {
        let date = #/[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]/#
        let time =
            #/[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?/#
        return text.wholeMatch(of: date.matchingSemantics(.unicodeScalar)) != nil
            || text.wholeMatch(of: time.matchingSemantics(.unicodeScalar)) != nil
    }
}
