import CYAML

/// libyaml's parser over one text, one event at a time: the only code that touches libyaml's
/// structures. Each event is copied into Swift values and freed before `next()` returns.
final class LibYAMLEvents {
    /// One parsing event, as Swift values.
    enum Event {
        case streamStart, streamEnd, documentStart, documentEnd
        case alias(anchor: String, mark: YAMLMark)
        case scalar(YAMLNode.Scalar, anchor: String?)
        case sequenceStart(tag: String?, anchor: String?, mark: YAMLMark)
        case sequenceEnd
        case mappingStart(tag: String?, anchor: String?, mark: YAMLMark)
        case mappingEnd
    }

    let yaml: String
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let input: UnsafeMutableBufferPointer<UInt8>
    private let initialized: Bool
    /// Where the last event that `next()` returned starts.
    private(set) var lastMark = YAMLMark(line: 1, column: 1)

    init(yaml: String) {
        self.yaml = yaml
        parser = .allocate(capacity: 1)
        input = .allocate(capacity: max(yaml.utf8.count, 1))
        _ = input.initialize(from: yaml.utf8)
        initialized = yaml_parser_initialize(parser) == 1
        if initialized {
            yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(parser, input.baseAddress, yaml.utf8.count)
        }
    }

    deinit {
        if initialized { yaml_parser_delete(parser) }
        parser.deallocate()
        input.deallocate()
    }

    /// Whether libyaml has handed out the stream's end.
    var streamEndProduced: Bool { initialized && parser.pointee.stream_end_produced != 0 }

    func next() throws(YAMLError) -> Event {
        guard initialized else { throw .memory }
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) == 1 else { throw error() }
        defer { yaml_event_delete(&event) }
        let mark = YAMLMark(line: event.start_mark.line + 1, column: event.start_mark.column + 1)
        lastMark = mark
        switch event.type {
        case YAML_STREAM_START_EVENT: return .streamStart
        case YAML_DOCUMENT_START_EVENT: return .documentStart
        case YAML_DOCUMENT_END_EVENT: return .documentEnd
        case YAML_ALIAS_EVENT: return .alias(anchor: Self.string(event.data.alias.anchor) ?? "", mark: mark)
        case YAML_SCALAR_EVENT:
            let data = event.data.scalar
            let value = String(decoding: UnsafeBufferPointer(start: data.value, count: data.length), as: UTF8.self)
            let tag: YAMLTag
            switch data.quoted_implicit == 1 ? YAMLTag.str.rawValue : Self.string(data.tag) {
            case nil, "": tag = YAMLTag.resolve(plain: value)
            case "!": tag = .str
            case let name?: tag = YAMLTag(rawValue: name)
            }
            let style: YAMLNode.Scalar.Style
            switch data.style {
            case YAML_ANY_SCALAR_STYLE, YAML_PLAIN_SCALAR_STYLE: style = .plain
            case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
            case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
            case YAML_LITERAL_SCALAR_STYLE: style = .literal
            case YAML_FOLDED_SCALAR_STYLE: style = .folded
            default: style = .other
            }
            return .scalar(.init(string: value, tag: tag, style: style, mark: mark), anchor: Self.string(data.anchor))
        case YAML_SEQUENCE_START_EVENT:
            let data = event.data.sequence_start
            return .sequenceStart(
                tag: data.implicit != 0 ? nil : Self.string(data.tag), anchor: Self.string(data.anchor), mark: mark)
        case YAML_SEQUENCE_END_EVENT: return .sequenceEnd
        case YAML_MAPPING_START_EVENT:
            let data = event.data.mapping_start
            return .mappingStart(
                tag: data.implicit != 0 ? nil : Self.string(data.tag), anchor: Self.string(data.anchor), mark: mark)
        case YAML_MAPPING_END_EVENT: return .mappingEnd
        default: return .streamEnd
        }
    }

    /// The parser's error, in libyaml's words and marks.
    private func error() -> YAMLError {
        let state = parser.pointee
        let problem = state.problem.map { String(cString: $0) } ?? ""
        let mark = YAMLMark(line: state.problem_mark.line + 1, column: state.problem_mark.column + 1)
        let context = state.context.map {
            YAMLError.Context(
                text: String(cString: $0),
                mark: YAMLMark(line: state.context_mark.line + 1, column: state.context_mark.column + 1))
        }
        switch state.error {
        case YAML_READER_ERROR:
            let offset = yaml.utf8.index(yaml.utf8.startIndex, offsetBy: state.problem_offset, limitedBy: yaml.utf8.endIndex)
                .flatMap { $0.samePosition(in: yaml) }
                .map { yaml.distance(from: yaml.startIndex, to: $0) }
            return .reader(problem: problem, offset: offset, value: state.problem_value, yaml: yaml)
        case YAML_SCANNER_ERROR: return .scanner(context: context, problem: problem, mark, yaml: yaml)
        case YAML_PARSER_ERROR: return .parser(context: context, problem: problem, mark, yaml: yaml)
        case YAML_COMPOSER_ERROR: return .composer(context: context, problem: problem, mark, yaml: yaml)
        default: return .memory
        }
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let pointer else { return nil }
        return String.decodeCString(pointer, as: UTF8.self, repairingInvalidCodeUnits: true)?.result
    }
}
