/// A node's tag, resolved: explicit (`!!int 3`) or from the core schema's rules for a plain
/// scalar (`3` is `!!int`, `yes` is `!!bool`, `~` is `!!null`); quoted text is always `!!str`.
public struct YAMLTag: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    public static let str = YAMLTag(rawValue: "tag:yaml.org,2002:str")
    public static let seq = YAMLTag(rawValue: "tag:yaml.org,2002:seq")
    public static let map = YAMLTag(rawValue: "tag:yaml.org,2002:map")
    public static let bool = YAMLTag(rawValue: "tag:yaml.org,2002:bool")
    public static let int = YAMLTag(rawValue: "tag:yaml.org,2002:int")
    public static let float = YAMLTag(rawValue: "tag:yaml.org,2002:float")
    public static let null = YAMLTag(rawValue: "tag:yaml.org,2002:null")
    public static let merge = YAMLTag(rawValue: "tag:yaml.org,2002:merge")
    public static let timestamp = YAMLTag(rawValue: "tag:yaml.org,2002:timestamp")
    public static let value = YAMLTag(rawValue: "tag:yaml.org,2002:value")

    /// The tag of a plain scalar without one: the first rule whose pattern the whole text
    /// matches (YAML 1.1's bool, int, float, merge, null, timestamp and value), else `!!str`.
    static func resolve(plain text: String) -> YAMLTag {
        for (tag, matches) in rules where matches(text) { return tag }
        return .str
    }

    private static let rules: [(YAMLTag, @Sendable (String) -> Bool)] = [
        (.bool, { ScalarPatterns.bool(in: $0) }),
        (.int, { ScalarPatterns.int(in: $0) }),
        (.float, { ScalarPatterns.float(in: $0) }),
        (.merge, { $0 == "<<" }),
        (.null, { ["", "~", "null", "Null", "NULL"].contains($0) }),
        (.timestamp, { ScalarPatterns.timestamp(in: $0) }),
        (.value, { $0 == "=" }),
    ]
}
