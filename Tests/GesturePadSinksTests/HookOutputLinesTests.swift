import Testing

@testable import GesturePadSinks

/// Splitting a hook's output stream into lines: pure, chunk by chunk.
@Suite struct HookOutputLinesTests {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Lines are counted per chunk, and a line split across chunks comes out whole.
    @Test func linesAcrossChunks() {
        var lines = HookOutputLines(maxBytes: 1_024)
        let first = bytes("alpha\nbe")
        #expect(HookOutputLines.count(in: first) == 1)
        #expect(lines.take(first, keeping: 1) == ["alpha"])
        #expect(lines.hasUnfinishedLine)
        let second = bytes("ta\r\ngamma\n")
        #expect(HookOutputLines.count(in: second) == 2)
        #expect(lines.take(second, keeping: 2) == ["beta", "gamma"])  // CR of CRLF dropped
        #expect(!lines.hasUnfinishedLine)
        #expect(lines.finish() == nil)
    }

    /// Lines not kept are skipped, the unfinished one they continue included; the new
    /// unfinished end is kept.
    @Test func skippedLines() {
        var lines = HookOutputLines(maxBytes: 1_024)
        _ = lines.take(bytes("par"), keeping: 0)
        #expect(lines.take(bytes("tial\nsecond\nthird\nfour"), keeping: 1) == ["partial"])
        #expect(lines.take(bytes("th\nfifth\n"), keeping: 0) == [])
        #expect(lines.take(bytes("sixth\n"), keeping: 1) == ["sixth"])
        _ = lines.take(bytes("seven"), keeping: 0)
        #expect(lines.finish() == "seven")
    }

    /// A line longer than the limit is cut there and ends in "…"; the rest is dropped.
    @Test func longLineIsCut() {
        var lines = HookOutputLines(maxBytes: 16)
        let long = bytes(String(repeating: "x", count: 40) + "\nshort\n")
        #expect(lines.take(long, keeping: 2) == [String(repeating: "x", count: 16) + "…", "short"])
    }

    /// A cut never splits a character: an incomplete UTF-8 sequence at the cut is dropped.
    @Test func cutAtCharacterBoundary() {
        var lines = HookOutputLines(maxBytes: 16)
        // 14 ASCII bytes, then "€" (3 bytes): the limit falls inside the euro sign.
        let text = String(repeating: "a", count: 14) + "€€\n"
        #expect(lines.take(bytes(text), keeping: 1) == [String(repeating: "a", count: 14) + "…"])
        #expect(HookOutputLines.characterBoundary(in: bytes("ab€")) == 5)
        #expect(HookOutputLines.characterBoundary(in: Array(bytes("ab€").prefix(4))) == 2)
        #expect(HookOutputLines.characterBoundary(in: Array(bytes("a😀").prefix(4))) == 1)
        #expect(HookOutputLines.characterBoundary(in: [0x80, 0x80, 0x80, 0x80]) == 4)
    }

    /// An endless line (no newline ever) holds at most the limit, however much arrives, and
    /// comes out cut at the end of the stream.
    @Test func endlessLineIsBounded() {
        var lines = HookOutputLines(maxBytes: 1_024)
        let chunk = [UInt8](repeating: UInt8(ascii: "z"), count: 65_536)
        for _ in 0..<20 { #expect(lines.take(chunk, keeping: 100).isEmpty) }
        #expect(lines.finish() == String(repeating: "z", count: 1_024) + "…")
    }

    /// Invalid UTF-8 is shown with replacement characters, not dropped or trapped on.
    @Test func invalidUTF8() {
        var lines = HookOutputLines(maxBytes: 64)
        #expect(lines.take([0x61, 0xFF, 0x62, 0x0A], keeping: 1) == ["a\u{FFFD}b"])
    }
}
