/// YAML through libyaml: a text composed into one document's node tree.
public enum YAML {
    /// The single document in `yaml`, nil when the text holds none (empty, or only comments).
    /// Throws libyaml's problem, an alias to no anchor, a mapping with a repeated key, or a
    /// second document.
    public static func compose(yaml: String) throws(YAMLError) -> YAMLNode? {
        var composer = Composer(events: LibYAMLEvents(yaml: yaml))
        return try composer.singleDocument()
    }
}

/// Builds nodes from libyaml's events without recursion (a deeply nested file cannot exhaust
/// the stack), resolving aliases to their anchored nodes.
private struct Composer {
    let events: LibYAMLEvents
    private var anchors: [String: YAMLNode] = [:]

    init(events: LibYAMLEvents) { self.events = events }

    /// A collection still open: its start and what it holds so far.
    private enum Open {
        case sequence(tag: String?, anchor: String?, mark: YAMLMark, nodes: [YAMLNode])
        case mapping(tag: String?, anchor: String?, mark: YAMLMark, pairs: [YAMLNode.Mapping.Pair], key: YAMLNode?)
    }

    mutating func singleDocument() throws(YAMLError) -> YAMLNode? {
        _ = try events.next()  // the stream's start
        guard !events.streamEndProduced, case .documentStart = try events.next() else { return nil }
        let node = try node(startingWith: events.next())
        _ = try events.next()  // the document's end
        let following = try events.next()
        guard case .streamEnd = following else {
            throw .composer(
                context: .init(text: "expected a single document in the stream", mark: YAMLMark(line: 1, column: 1)),
                problem: "but found another document", events.lastMark, yaml: events.yaml)
        }
        return node
    }

    /// The node that begins with `first`, with everything nested in it.
    private mutating func node(startingWith first: LibYAMLEvents.Event) throws(YAMLError) -> YAMLNode {
        var open: [Open] = []
        var event = first
        while true {
            var done: YAMLNode?
            switch event {
            case .alias(let anchor, let mark):
                guard let node = anchors[anchor] else {
                    throw .composer(context: nil, problem: "found undefined alias", mark, yaml: events.yaml)
                }
                done = node
            case .scalar(let scalar, let anchor):
                done = register(.scalar(scalar), anchor: anchor)
            case .sequenceStart(let tag, let anchor, let mark):
                open.append(.sequence(tag: tag, anchor: anchor, mark: mark, nodes: []))
            case .mappingStart(let tag, let anchor, let mark):
                open.append(.mapping(tag: tag, anchor: anchor, mark: mark, pairs: [], key: nil))
            case .sequenceEnd, .mappingEnd:
                switch open.popLast() {
                case .sequence(let tag, let anchor, let mark, let nodes):
                    let sequence = YAMLNode.Sequence(nodes: nodes, tag: Self.collectionTag(tag, implicit: .seq), mark: mark)
                    done = register(.sequence(sequence), anchor: anchor)
                case .mapping(let tag, let anchor, let mark, let pairs, _):
                    try DuplicateKeys.check(pairs.map(\.key), yaml: events.yaml)
                    let mapping = YAMLNode.Mapping(pairs: pairs, tag: Self.collectionTag(tag, implicit: .map), mark: mark)
                    done = register(.mapping(mapping), anchor: anchor)
                case nil:
                    throw .composer(context: nil, problem: "found an unexpected end", events.lastMark, yaml: events.yaml)
                }
            case .streamStart, .streamEnd, .documentStart, .documentEnd:
                throw .composer(context: nil, problem: "found an unexpected event", events.lastMark, yaml: events.yaml)
            }
            if let node = done {
                guard let top = open.popLast() else { return node }
                switch top {
                case .sequence(let tag, let anchor, let mark, var nodes):
                    nodes.append(node)
                    open.append(.sequence(tag: tag, anchor: anchor, mark: mark, nodes: nodes))
                case .mapping(let tag, let anchor, let mark, var pairs, let key?):
                    pairs.append(.init(key: key, value: node))
                    open.append(.mapping(tag: tag, anchor: anchor, mark: mark, pairs: pairs, key: nil))
                case .mapping(let tag, let anchor, let mark, let pairs, nil):
                    open.append(.mapping(tag: tag, anchor: anchor, mark: mark, pairs: pairs, key: node))
                }
            }
            event = try events.next()
        }
    }

    /// Remembers `node` under its anchor (a later anchor of the same name shadows it).
    private mutating func register(_ node: YAMLNode, anchor: String?) -> YAMLNode {
        if let anchor { anchors[anchor] = node }
        return node
    }

    /// A collection's tag: its explicit one, else (none, or the non-specific `!`) `implicit`.
    private static func collectionTag(_ name: String?, implicit: YAMLTag) -> YAMLTag {
        guard let name, name != "", name != "!" else { return implicit }
        return YAMLTag(rawValue: name)
    }
}
