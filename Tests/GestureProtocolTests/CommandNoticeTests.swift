import GestureControl
import GestureEngine
import Testing

@testable import GestureProtocol

/// The `command` notice (docs/protocol.md "What the computer was told"): a command carried out
/// is told as a `.command` frame — its page's and every observer's —, with the number of
/// characters typed and never the text; a refused command is not told.
struct CommandNoticeTests {
    static func commands(_ output: SessionOutput) -> [String] {
        output.frames.frames.indices.filter { output.frames.frames[$0].kind == .command }
            .map { String(decoding: output.frames.frameBytes($0), as: UTF8.self) }
    }

    @Test func carriedOutCommandsAreTold() {
        var (session, output) = ControlMessageTests.touchpad(ControlMessageTests.x11)
        session.receive(
            #"[{"type":"text","text":"pässwörd"},{"type":"key","key":"c","modifiers":["Control","Shift"]},"#
                + #"{"type":"key","key":"Enter"},{"type":"button","button":"right","action":"click"}]"#, at: 1,
            into: &output)
        #expect(
            Self.commands(output) == [
                #"{"type":"command","session":"s","command":"text","characters":8}"#,
                #"{"type":"command","session":"s","command":"key","key":"c","modifiers":["Control","Shift"]}"#,
                #"{"type":"command","session":"s","command":"key","key":"Enter","modifiers":[]}"#,
                #"{"type":"command","session":"s","command":"button","button":"right","action":"click"}"#,
            ])
        #expect(!String(decoding: output.frames.bytes, as: UTF8.self).contains("pässwörd"))
    }

    @Test func refusedCommandsAreNotTold() {
        var (session, output) = ControlMessageTests.touchpad(ControlMessageTests.uinput)
        session.receive(#"{"type":"text","text":"中"}"#, at: 1, into: &output)
        var (off, offOutput) = ControlMessageTests.touchpad(.off(reason: "control is off"))
        off.receive(#"{"type":"key","key":"Enter"}"#, at: 1, into: &offOutput)
        #expect(Self.commands(output).isEmpty && Self.commands(offOutput).isEmpty)
    }
}
