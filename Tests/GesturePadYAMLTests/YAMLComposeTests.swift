import Testing

@testable import GesturePadYAML

/// `YAML.compose`: libyaml's events as a node tree with the core schema's tags, 1-based marks,
/// aliases followed, repeated keys and second documents refused, libyaml's words for syntax.
@Suite struct YAMLComposeTests {
    private func root(_ yaml: String) throws -> YAMLNode {
        let node = try YAML.compose(yaml: yaml)
        return try #require(node)
    }

    private func value(_ yaml: String) throws -> YAMLNode {
        let mapping = try #require(try root(yaml).mapping)
        return try #require(mapping.first?.value)
    }

    /// Plain scalars take the tag of the first YAML 1.1 rule their whole text matches; quoted
    /// text is always a string; an explicit tag wins.
    @Test(arguments: [
        ("a: yes", YAMLTag.bool), ("a: Off", .bool), ("a: yES", .str), ("a: 0x1F", .int), ("a: 0o17", .int),
        ("a: 017", .int), ("a: 0b101", .int), ("a: 1_000", .int), ("a: 1:30", .int), ("a: 09", .float),
        ("a: 1.5e3", .float), ("a: .inf", .float), ("a: -.Inf", .float), ("a: .NaN", .float), ("a: 1:30.5", .float),
        ("a: ~", .null), ("a:", .null), ("a: NULL", .null), ("a: <<", .merge), ("a: =", .value),
        ("a: 2001-12-14", .timestamp), ("a: 2001-12-14 21:59:43.10 -5", .timestamp), ("a: '5'", .str),
        ("a: \"yes\"", .str), ("a: |\n  5\n", .str), ("a: !!int '5'", .int), ("a: ! 5", .str), ("a: 5 apples", .str),
        ("a: [1]", .seq), ("a: {b: 1}", .map), ("a: !!str [1]", .str),
    ])
    func tags(yaml: String, tag: YAMLTag) throws {
        #expect(try value(yaml).tag == tag)
    }

    /// Numbers and truth values as YAML 1.1 writes them; quoted text is none of them.
    @Test func values() throws {
        #expect(try value("a: 0x1F").int == 31)
        #expect(try value("a: -0o17").int == -15)
        #expect(try value("a: 017").int == 15)
        #expect(try value("a: 0b101").int == 5)
        #expect(try value("a: 1_000").int == 1000)
        #expect(try value("a: -1:30").int == -90)
        #expect(try value("a: 1:00:00:00:00:00:00:00:00:00:00:00").int == nil)  // overflows: no value, no trap
        #expect(try value("a: '5'").int == nil)
        #expect(try value("a: 1:30.5").float == 90.5)
        #expect(try value("a: -.inf").float == -.infinity)
        #expect(try value("a: 2.5").float == 2.5)
        #expect(try value("a: On").bool == true)
        #expect(try value("a: no").bool == false)
        #expect(try value("a: 'yes'").bool == nil)
    }

    /// Marks are 1-based; mappings and sequences keep the file's order.
    @Test func marksAndOrder() throws {
        let mapping = try #require(try root("# c\nz: 1\na:\n  - x\n  - y\n").mapping)
        #expect(mapping.map { $0.key.scalar?.string } == ["z", "a"])
        #expect(mapping[0].key.mark == YAMLMark(line: 2, column: 1))
        let list = try #require(mapping[1].value.sequence)
        #expect(list.map { $0.scalar?.string } == ["x", "y"])
        #expect(list[1].mark == YAMLMark(line: 5, column: 5))
    }

    /// An alias is the anchored node itself (with its place); an unknown one is refused.
    @Test func aliases() throws {
        let mapping = try #require(try root("a: &n {b: 1}\nc: *n\n").mapping)
        #expect(mapping[1].value == mapping[0].value)
        #expect(mapping[1].value.mark == YAMLMark(line: 1, column: 4))
        #expect(throws: YAMLError.self) { try YAML.compose(yaml: "a: *nope\n") }
    }

    /// Empty text and comments are no document; a second document is refused.
    @Test func documents() throws {
        #expect(try YAML.compose(yaml: "") == nil)
        #expect(try YAML.compose(yaml: "# only a comment\n") == nil)
        do {
            _ = try YAML.compose(yaml: "a: 1\n--- \nb: 2\n")
            Issue.record("a second document was accepted")
        } catch {
            guard case .composer(let context, let problem, let mark, _) = error else { throw error }
            #expect(problem == "but found another document" && mark == YAMLMark(line: 2, column: 1))
            #expect(context?.text == "expected a single document in the stream")
        }
    }

    /// A repeated key (same text and tag) names every repeated key, sorted, at the first's place.
    @Test func duplicateKeys() throws {
        do {
            _ = try YAML.compose(yaml: "x: 0\nb: 1\n'b': 2\na: 3\na: 4\n1: 5\n'1': 6\n")
            Issue.record("repeated keys were accepted")
        } catch {
            guard case .duplicatedKeysInMapping(let keys, let context) = error else { throw error }
            #expect(keys == ["a", "b"] && context.mark == YAMLMark(line: 4, column: 1))
        }
    }

    /// libyaml's own words and marks for a syntax error; a control character is the reader's.
    @Test func syntaxErrors() throws {
        do {
            _ = try YAML.compose(yaml: "a: [1, 2\n")
            Issue.record("an unclosed list was accepted")
        } catch {
            guard case .parser(let context, let problem, let mark, _) = error else { throw error }
            #expect(problem == "did not find expected ',' or ']'" && mark == YAMLMark(line: 2, column: 1))
            #expect(context?.text == "while parsing a flow sequence" && context?.mark == YAMLMark(line: 1, column: 4))
        }
        do {
            _ = try YAML.compose(yaml: "a: b\nc: \u{1}\n")
            Issue.record("a control character was accepted")
        } catch {
            guard case .reader = error else { throw error }
            #expect("\(error)" == "2:4: error: reader: control characters are not allowed:\nc: \u{1}\n   ^")
        }
    }

    /// Deep nesting is composed level by level (no recursion in the composer).
    @Test func deepNesting() throws {
        let depth = 5_000
        let node = try root(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
        var level = 0
        var current: YAMLNode? = node
        while let sequence = current?.sequence {
            level += 1
            current = sequence.first
        }
        #expect(level == depth)
    }
}
