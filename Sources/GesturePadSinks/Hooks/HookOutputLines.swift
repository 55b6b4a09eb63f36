/// Splits one output stream of a hook (its stdout or its stderr) into lines. Holds at most
/// `maxBytes` of an unfinished line: the rest of a longer line is dropped, and the line ends
/// in "…" when it is logged. Pure: the reader hands it chunks as they come.
///
/// Per chunk, the reader counts the complete lines (`count(in:)`), asks the limiter how many
/// to log, and `take`s the chunk: only the lines logged become text; the others are skipped
/// without being copied, so a flood costs one pass over its bytes.
struct HookOutputLines: Sendable {
    static let newline = UInt8(ascii: "\n")
    /// What ends a cut line.
    static let cutMarker = "…"

    let maxBytes: Int
    /// The start of the current line (at most `maxBytes`), and whether more of it was dropped.
    private var pending: [UInt8] = []
    private var cut = false

    init(maxBytes: Int) {
        self.maxBytes = max(4, maxBytes)
    }

    /// The number of complete lines (newlines) in `chunk`.
    static func count(in chunk: [UInt8]) -> Int {
        var lines = 0
        for byte in chunk where byte == newline { lines += 1 }
        return lines
    }

    /// Whether an unfinished line is held.
    var hasUnfinishedLine: Bool { !pending.isEmpty || cut }

    /// Takes `chunk`: returns its first `keep` complete lines as text (the first continues
    /// what earlier chunks left unfinished); the other complete lines are skipped; the
    /// unfinished end is kept for the next chunk.
    mutating func take(_ chunk: [UInt8], keeping keep: Int) -> [String] {
        var lines: [String] = []
        var start = chunk.startIndex
        while lines.count < keep, let end = chunk[start...].firstIndex(of: Self.newline) {
            append(chunk[start..<end])
            lines.append(text())
            start = end + 1
        }
        if let last = chunk[start...].lastIndex(of: Self.newline) {
            // Suppressed lines, the unfinished one they continue included.
            pending.removeAll(keepingCapacity: true)
            cut = false
            start = last + 1
        }
        append(chunk[start...])
        return lines
    }

    /// At the end of the stream: the unfinished last line, if any.
    mutating func finish() -> String? {
        hasUnfinishedLine ? text() : nil
    }

    private mutating func append(_ bytes: ArraySlice<UInt8>) {
        let room = maxBytes - pending.count
        if bytes.count > room {
            pending.append(contentsOf: bytes.prefix(room))
            cut = true
        } else {
            pending.append(contentsOf: bytes)
        }
    }

    /// The held line as text, then forgets it: invalid UTF-8 is replaced (U+FFFD), a
    /// trailing CR dropped, and a cut line ends at a whole character, then "…".
    private mutating func text() -> String {
        defer {
            pending.removeAll(keepingCapacity: true)
            cut = false
        }
        if cut {
            return String(decoding: pending[..<Self.characterBoundary(in: pending)], as: UTF8.self) + Self.cutMarker
        }
        let end = pending.last == UInt8(ascii: "\r") ? pending.count - 1 : pending.count
        return String(decoding: pending[..<end], as: UTF8.self)
    }

    /// The length of `bytes` without a UTF-8 sequence that the cut left incomplete.
    static func characterBoundary(in bytes: [UInt8]) -> Int {
        // The last lead byte within the last 4 bytes, and how long its sequence should be.
        var lead = bytes.count
        while lead > 0, lead > bytes.count - 4 {
            lead -= 1
            let byte = bytes[lead]
            guard byte & 0xC0 == 0x80 else {
                let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                return lead + length > bytes.count ? lead : bytes.count
            }
        }
        return bytes.count
    }
}
