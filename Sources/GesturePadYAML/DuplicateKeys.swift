/// A mapping's keys checked for repeats: equal text and tag (`a` and `'a'` are the same key,
/// `1` and `"1"` are not).
enum DuplicateKeys {
    /// Throws `duplicatedKeysInMapping` naming every repeated key, sorted, with the place where
    /// the first of them first appears.
    static func check(_ keys: [YAMLNode], yaml: String) throws(YAMLError) {
        var seen: [YAMLNode: Int] = [:]
        var repeated: [YAMLNode] = []
        for key in keys {
            seen[key, default: 0] += 1
            if seen[key] == 2 { repeated.append(key) }
        }
        guard !repeated.isEmpty else { return }
        // The first occurrence of each key carries its place: `repeated` holds the second.
        let firsts = repeated.map { key in keys.first { $0 == key } ?? key }
        let sorted = firsts.sorted(by: precedes)
        let first = sorted.first?.mark ?? YAMLMark(line: 0, column: 0)
        throw .duplicatedKeysInMapping(
            duplicates: sorted.map { text(of: $0) ?? "<uncovertable>" }, context: .init(text: yaml, mark: first))
    }

    /// The order keys are listed in: scalars by text, collections item by item (mapping pairs by
    /// key); nodes of different kinds keep their order.
    private static func precedes(_ lhs: YAMLNode, _ rhs: YAMLNode) -> Bool {
        switch (lhs, rhs) {
        case (.scalar(let l), .scalar(let r)): return l.string < r.string
        case (.sequence(let l), .sequence(let r)): return lexicographicallyPrecedes(Array(l), Array(r))
        case (.mapping(let l), .mapping(let r)): return lexicographicallyPrecedes(l.map(\.key), r.map(\.key))
        default: return false
        }
    }

    private static func lexicographicallyPrecedes(_ lhs: [YAMLNode], _ rhs: [YAMLNode]) -> Bool {
        for (l, r) in zip(lhs, rhs) {
            if precedes(l, r) { return true }
            if precedes(r, l) { return false }
        }
        return lhs.count < rhs.count
    }

    /// A key's text: a scalar's, or a mapping's `=` value's.
    private static func text(of node: YAMLNode) -> String? {
        if case .mapping(let mapping) = node {
            for (key, value) in mapping where key.tag == .value { return text(of: value) }
        }
        return node.scalar?.string
    }
}
