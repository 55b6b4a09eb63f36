/// A configuration file that failed validation: every problem found, with line numbers.
public struct ConfigError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var issues: [ConfigIssue]

    public init(path: String, issues: [ConfigIssue]) {
        self.path = path
        self.issues = issues
    }

    /// One `FILE:LINE:COLUMN: error: message` line per problem (the compiler's format, so
    /// editors can jump to it).
    public var description: String {
        issues.map { issue in
            issue.line > 0
                ? "\(path):\(issue.line):\(issue.column): error: \(issue.message)"
                : "\(path): error: \(issue.message)"
        }.joined(separator: "\n")
    }
}
