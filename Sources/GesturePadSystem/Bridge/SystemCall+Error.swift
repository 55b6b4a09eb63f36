import FoundationEssentials

extension SystemCall {
    /// A file operation's error in the system's words ("No such file or directory"): the
    /// `errno` under a FoundationEssentials error, a `SystemCallError`'s, else the error itself.
    public static func describe(_ error: any Error) -> String {
        if let error = error as? SystemCallError { return error.description }
        if let error = error as? POSIXError { return describe(error.code.rawValue) }
        if let error = error as? CocoaError, let underlying = error.underlying as? POSIXError {
            return describe(underlying.code.rawValue)
        }
        return "\(error)"
    }
}
