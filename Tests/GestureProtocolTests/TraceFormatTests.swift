import GestureProtocol
import Testing

@Suite struct TraceFormatTests {
    /// A frame is written as received, except raw line breaks (JSON whitespace) become tabs:
    /// one frame is always one line, and means the same to the decoder.
    @Test func oneFramePerLine() {
        var out: [UInt8] = []
        TraceFormat.appendLine(Array("{\"type\":\r\n\"ping\",\"t\":1}".utf8), to: &out)
        TraceFormat.appendLine(Array("[]".utf8), to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "{\"type\":\t\t\"ping\",\"t\":1}\n[]\n")
    }

    /// A note line round-trips; other lines (messages, near misses) are not notes; control
    /// characters in a note are shown as `?`.
    @Test func noteLines() {
        var out: [UInt8] = []
        TraceFormat.appendNote("truncated at 1024 bytes \"here\"", to: &out)
        let line = Array(out.dropLast())
        #expect(String(decoding: out, as: UTF8.self) == #"{"type":"note","text":"truncated at 1024 bytes \"here\""}"# + "\n")
        #expect(TraceFormat.noteText(line.span) == #"truncated at 1024 bytes "here""#)
        for other in [
            #"{"type":"ping","t":1}"#, #"{"type":"note","text":"x","more":1}"#, #"{"type":"note","text":"x"} y"#,
            #"{"type":"note","text":1}"#,
        ] {
            #expect(TraceFormat.noteText(Array(other.utf8).span) == nil)
        }
        #expect(TraceFormat.noteText(Array(#"{"type":"note","text":"a\u001bb"}"#.utf8).span) == "a?b")
    }

    /// `replay` says a note on stderr and goes on; the gestures are those of the other lines.
    @Test func replaySaysNotes() {
        var host = ReplayHost()
        var stdout: [UInt8] = []
        var stderr: [UInt8] = []
        let lines = [
            #"{"type":"hello","protocol":1,"role":"touchpad","width":390,"height":844}"#,
            #"{"type":"down","id":1,"x":10,"y":10,"t":100,"pointerType":"touch"}"#,
            #"{"type":"note","text":"recording truncated"}"#,
            #"{"type":"up","id":1,"x":10,"y":10,"t":150,"pointerType":"touch"}"#,
        ]
        for (index, line) in lines.enumerated() {
            host.feed(line: Array(line.utf8).span, number: index + 1, stdout: &stdout, stderr: &stderr)
        }
        host.finish(stdout: &stdout)
        #expect(String(decoding: stderr, as: UTF8.self) == "line 3: note: recording truncated\n")
        let gestures = String(decoding: stdout, as: UTF8.self)
        #expect(gestures.contains(#""gesture":"tap""#) && gestures.contains(#""gesture":"singleTapConfirmed""#))
    }
}
