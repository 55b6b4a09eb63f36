/// Where a node or a problem starts in the text: 1-based line and column, the column counted in
/// Unicode scalars (libyaml's marks, plus one).
public struct YAMLMark: Sendable, Hashable, CustomStringConvertible {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}
