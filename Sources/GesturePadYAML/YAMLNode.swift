/// One node of a YAML document, as composed from libyaml's events: aliases are replaced by the
/// node they name, every node keeps its resolved tag and where it starts.
public enum YAMLNode: Hashable, Sendable {
    case scalar(Scalar)
    case mapping(Mapping)
    case sequence(Sequence)

    /// A scalar: its text, tag, style and place. Two scalars are the same key when text and tag
    /// are (`1` and `"1"` are not: `!!int` and `!!str`).
    public struct Scalar: Hashable, Sendable {
        /// How the scalar was written (libyaml's `yaml_scalar_style_t`).
        public enum Style: Sendable {
            case plain, singleQuoted, doubleQuoted, literal, folded, other
        }

        public let string: String
        public let tag: YAMLTag
        public let style: Style
        public let mark: YAMLMark

        public static func == (lhs: Scalar, rhs: Scalar) -> Bool { lhs.string == rhs.string && lhs.tag == rhs.tag }
        public func hash(into hasher: inout Hasher) {
            hasher.combine(string)
            hasher.combine(tag)
        }
    }

    /// A mapping's key–value pairs, in the file's order.
    public struct Mapping: RandomAccessCollection, Hashable, Sendable {
        public let pairs: [Pair]
        public let tag: YAMLTag
        public let mark: YAMLMark

        /// One key and its value.
        public struct Pair: Hashable, Sendable {
            public let key: YAMLNode
            public let value: YAMLNode
        }

        public var startIndex: Int { pairs.startIndex }
        public var endIndex: Int { pairs.endIndex }
        public subscript(position: Int) -> (key: YAMLNode, value: YAMLNode) {
            (pairs[position].key, pairs[position].value)
        }

        public static func == (lhs: Mapping, rhs: Mapping) -> Bool { lhs.pairs == rhs.pairs && lhs.tag == rhs.tag }
        public func hash(into hasher: inout Hasher) {
            hasher.combine(pairs)
            hasher.combine(tag)
        }
    }

    /// A sequence's items, in the file's order.
    public struct Sequence: RandomAccessCollection, Hashable, Sendable {
        public let nodes: [YAMLNode]
        public let tag: YAMLTag
        public let mark: YAMLMark

        public var startIndex: Int { nodes.startIndex }
        public var endIndex: Int { nodes.endIndex }
        public subscript(position: Int) -> YAMLNode { nodes[position] }

        public static func == (lhs: Sequence, rhs: Sequence) -> Bool { lhs.nodes == rhs.nodes && lhs.tag == rhs.tag }
        public func hash(into hasher: inout Hasher) {
            hasher.combine(nodes)
            hasher.combine(tag)
        }
    }

    public var scalar: Scalar? {
        if case .scalar(let scalar) = self { return scalar }
        return nil
    }

    public var mapping: Mapping? {
        if case .mapping(let mapping) = self { return mapping }
        return nil
    }

    public var sequence: Sequence? {
        if case .sequence(let sequence) = self { return sequence }
        return nil
    }

    public var tag: YAMLTag {
        switch self {
        case .scalar(let scalar): return scalar.tag
        case .mapping(let mapping): return mapping.tag
        case .sequence(let sequence): return sequence.tag
        }
    }

    /// Where the node starts (an alias's node: where the anchored node starts).
    public var mark: YAMLMark {
        switch self {
        case .scalar(let scalar): return scalar.mark
        case .mapping(let mapping): return mapping.mark
        case .sequence(let sequence): return sequence.mark
        }
    }
}
