/// The trace file `gesturepad replay` reads and `gesturepad serve --record` writes: one page →
/// server frame (a message or a batch) per line, in the order received, `hello` first.
///
/// A recorder writes each frame exactly as it arrived, with one exception: a raw line feed or
/// carriage return (JSON allows them only as whitespace between tokens; inside a string they
/// are an error) becomes a tab, which JSON treats the same way in both places. So every line
/// means to `replay` what its frame meant to the live session.
///
/// Additive: a **note line**, `{"type":"note","text":"…"}`, written by the recorder (never by a
/// page) to say something about the recording itself, e.g. that it was truncated. `replay`
/// prints `line N: note: TEXT` on stderr for it and goes on; it is not input.
public enum TraceFormat {
    /// The exact opening of a note line, before its text (a JSON string).
    static let notePrefix: [UInt8] = Array(#"{"type":"note","text":"#.utf8)

    /// Appends `frame` as one trace line (with its `\n`).
    public static func appendLine(_ frame: [UInt8], to out: inout [UInt8]) {
        out.reserveCapacity(out.count + frame.count + 1)
        for byte in frame {
            out.append(byte == 0x0A || byte == 0x0D ? 0x09 : byte)
        }
        out.append(0x0A)
    }

    /// Appends a note line saying `text` (with its `\n`).
    public static func appendNote(_ text: String, to out: inout [UInt8]) {
        out.append(contentsOf: notePrefix)
        JSONWriter.appendString(text, to: &out)
        out.append(UInt8(ascii: "}"))
        out.append(0x0A)
    }

    /// The text of a note line, or nil when `line` is not one (exactly the recorder's form:
    /// the prefix, one JSON string, `}`, optional trailing whitespace), control characters
    /// replaced by `?`.
    public static func noteText(_ line: Span<UInt8>) -> String? {
        guard line.count > notePrefix.count else { return nil }
        for i in notePrefix.indices where line[i] != notePrefix[i] { return nil }
        guard UTF8Validator.isValid(line) else { return nil }
        var scanner = JSONScanner()
        scanner.index = notePrefix.count
        do throws(JSONSyntaxError) {
            let token = try scanner.scanString(line)
            try scanner.expect(UInt8(ascii: "}"), line, "expected '}'")
            scanner.skipWhitespace(line)
            guard scanner.index == line.count else { return nil }
            // Control characters shown as `?`: a page could send a frame of this very form,
            // and replaying a file from someone else must not drive the terminal.
            let text = JSONStringDecoder.decode(token, in: line).map { $0 < 0x20 || $0 == 0x7F ? UInt8(ascii: "?") : $0 }
            return String(decoding: text, as: UTF8.self)
        } catch {
            return nil
        }
    }
}
