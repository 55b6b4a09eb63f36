import CLibWebSockets
import Logging
import Synchronization

/// libwebsockets' own log lines, through the server's `Logger` instead of raw on stderr: none
/// while the server starts (a start-up failure is one clear line of ours), its errors as
/// warnings afterwards.
enum LWSLog {
    /// Set once the server listens: from then on lws errors are logged.
    static let started = Atomic<Bool>(false)
    private static let logger = Mutex<Logger?>(nil)

    /// Routes lws logging to `logger`; call before creating the lws context.
    static func install(_ logger: Logger) {
        self.logger.withLock { $0 = logger }
        started.store(false, ordering: .releasing)
        lws_set_log_level(LLL_ERR, forwardLWSLine)
    }

    fileprivate static func emit(_ line: String) {
        guard started.load(ordering: .acquiring) else { return }
        let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
        logger.withLock { $0?.warning("libwebsockets: \(text)") }
    }
}

/// lws's log callback: one line at a time, on the service thread.
private func forwardLWSLine(_ level: Int32, _ line: UnsafePointer<CChar>?) {
    guard let line else { return }
    LWSLog.emit(String(cString: line))
}

extension String {
    fileprivate func trimmingCharacters(in set: Set<Character>) -> String {
        var s = Substring(self)
        while let last = s.last, set.contains(last) { s = s.dropLast() }
        while let first = s.first, set.contains(first) { s = s.dropFirst() }
        return String(s)
    }
}

extension Set where Element == Character {
    fileprivate static let whitespacesAndNewlines: Set<Character> = [" ", "\n", "\r", "\t"]
}
