/// A text cut into lines the way error snippets count them: a line ends after `\n`, `\r`,
/// `\r\n`, U+0085, U+2028 or U+2029 and keeps its terminator; columns count UTF-16 units.
struct TextLines {
    private let scalars: String.UnicodeScalarView
    /// Each line's bounds in `scalars`; never empty (an empty text is one empty line).
    private let lines: [Range<String.Index>]

    init(_ text: String) {
        scalars = text.unicodeScalars
        var lines: [Range<String.Index>] = []
        var start = scalars.startIndex
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            index = scalars.index(after: index)
            if scalar == "\r", index < scalars.endIndex, scalars[index] == "\n" { index = scalars.index(after: index) }
            if Self.isTerminator(scalar) {
                lines.append(start..<index)
                start = index
            }
        }
        if start < scalars.endIndex || lines.isEmpty { lines.append(start..<scalars.endIndex) }
        self.lines = lines
    }

    /// The 0-based line and UTF-16 column of the character at `offset`, and that line's text.
    func place(ofCharacter offset: Int) -> (line: Int, column: Int, contents: String)? {
        let text = String(scalars)
        guard let index = text.index(text.startIndex, offsetBy: offset, limitedBy: text.endIndex) else { return nil }
        let number = lines.firstIndex { $0.upperBound > index || $0.upperBound == scalars.endIndex } ?? lines.count - 1
        let line = lines[number]
        let column = text.utf16.distance(from: line.lowerBound, to: index)
        return (number, column, String(scalars[line]))
    }

    /// The line of `mark` (the last line when past the end) and a caret under its column.
    func snippet(at mark: YAMLMark) -> String {
        let line = lines[min(max(mark.line - 1, 0), lines.count - 1)]
        let contents = scalars[line]
        let columnIndex =
            contents.index(contents.startIndex, offsetBy: max(mark.column - 1, 0), limitedBy: contents.endIndex)
            ?? contents.endIndex
        let column = String(scalars).utf16.distance(from: line.lowerBound, to: columnIndex)
        return Self.endingWithNewline(String(contents)) + String(repeating: " ", count: column) + "^"
    }

    /// `text`, with a `\n` added unless it already ends in a line break.
    static func endingWithNewline(_ text: String) -> String {
        guard let last = text.unicodeScalars.last, isTerminator(last) || last == "\u{0B}" || last == "\u{0C}" else {
            return text + "\n"
        }
        return text
    }

    private static func isTerminator(_ scalar: Unicode.Scalar) -> Bool {
        ["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"].contains(scalar)
    }
}
