/// One problem found in a configuration file.
public struct ConfigIssue: Sendable, Hashable, CustomStringConvertible {
    /// 1-based line; 0 when the problem has no place (e.g. unreadable file).
    public var line: Int
    public var column: Int
    public var message: String

    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { line > 0 ? "line \(line): \(message)" : message }
}
