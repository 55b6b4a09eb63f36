import GestureControl
import GestureEngine
import Testing

@testable import GestureProtocol

/// `text`, `key` and `button` (CONTROL.md): who may send them, which values pass, what they do.
struct ControlMessageTests {
    static let x11 = ControlContext(status: .active(backend: "x11"), capabilities: .init(characters: .anyUnicode))
    static let uinput = ControlContext(status: .active(backend: "uinput"), capabilities: .init(characters: .usLayoutASCII))

    static func touchpad(_ control: ControlContext) -> (ProtocolSession, SessionOutput) {
        var session = ProtocolSession(sessionID: "s", config: GestureConfig(), limits: ProtocolLimits(), control: control)
        var output = SessionOutput()
        session.receive(TestSupport.hello, at: 0, into: &output)
        output.removeAll()
        return (session, output)
    }

    /// While the server does not control the computer, each of the three gets control_off and the connection stays.
    @Test func controlOff() {
        var (session, output) = Self.touchpad(.off(reason: "--control off"))
        session.receive(#"{"type":"text","text":"hi"}"#, at: 1, into: &output)
        session.receive(#"{"type":"key","key":"Enter"}"#, at: 1, into: &output)
        session.receive(#"{"type":"button","button":"left","action":"click"}"#, at: 1, into: &output)
        #expect(TestSupport.errorCodes(output) == ["control_off", "control_off", "control_off"])
        let message = TestSupport.frames(output).first?.1["message"] as? String
        #expect(message == "text: this server does not control the computer (--control off)")
        #expect(output.actions.isEmpty && output.close == nil)
    }

    /// Observers get observer_read_only, a connection without hello gets hello_required.
    @Test func observersAndHello() {
        var session = ProtocolSession(sessionID: "s", config: GestureConfig(), limits: ProtocolLimits(), control: Self.x11)
        var output = SessionOutput()
        session.receive(#"{"type":"text","text":"hi"}"#, at: 0, into: &output)
        session.receive(#"{"type":"hello","protocol":1,"role":"observer"}"#, at: 0, into: &output)
        let welcome = TestSupport.frames(output).last?.1["control"] as? [String: Any]
        #expect(welcome?["active"] as? Bool == false)
        session.receive(#"{"type":"key","key":"a"}"#, at: 1, into: &output)
        #expect(TestSupport.errorCodes(output) == ["hello_required", "observer_read_only"])
        #expect(output.actions.isEmpty)
    }

    /// A touchpad's welcome names the backend in force.
    @Test func welcomeNamesTheBackend() {
        var session = ProtocolSession(sessionID: "s", config: GestureConfig(), limits: ProtocolLimits(), control: Self.x11)
        var output = SessionOutput()
        session.receive(TestSupport.hello, at: 0, into: &output)
        let control = TestSupport.frames(output).first?.1["control"] as? [String: Any]
        #expect(control?["active"] as? Bool == true)
        #expect(control?["backend"] as? String == "x11")
    }

    /// Empty, too long, control characters, unknown keys and modifiers, bad buttons: bad_field, nothing done.
    @Test func badValues() {
        var (session, output) = Self.touchpad(Self.x11)
        let long = String(repeating: "é", count: 1_001)
        for message in [
            #"{"type":"text","text":""}"#, #"{"type":"text","text":"\#(long)"}"#, #"{"type":"text","text":"a\u0007b"}"#,
            #"{"type":"text","text":5}"#, #"{"type":"text"}"#, #"{"type":"key","key":"Hyper"}"#,
            #"{"type":"key","key":"ab"}"#, #"{"type":"key","key":"a","modifiers":["Control","Hyper"]}"#,
            #"{"type":"key","key":"a","modifiers":"Control"}"#, #"{"type":"button","button":"side","action":"click"}"#,
            #"{"type":"button","button":"left","action":"hold"}"#, #"{"type":"button","button":"left"}"#,
        ] {
            session.receive(message, at: 1, into: &output)
        }
        #expect(TestSupport.errorCodes(output) == Array(repeating: "bad_field", count: 12))
        #expect(output.actions.isEmpty && output.close == nil)
        let messages = TestSupport.frames(output).map { $0.1["message"] as? String ?? "" }
        #expect(messages[1] == #"text: field "text" must be at most 1000 characters"#)
        #expect(messages[2] == #"text: field "text" must not hold control characters (U+0007)"#)
        #expect(messages[5] == #"key: field "key" names no key GesturePad can press: "Hyper""#)
    }

    /// Exactly 1,000 characters, tab and newline pass; a carriage return becomes a newline.
    @Test func textLimits() {
        var (session, output) = Self.touchpad(Self.x11)
        session.receive(#"{"type":"text","text":"\#(String(repeating: "中", count: 1_000))"}"#, at: 1, into: &output)
        session.receive(#"{"type":"text","text":"a\tb\r\nc\rd"}"#, at: 1, into: &output)
        #expect(TestSupport.errorCodes(output).isEmpty)
        let decoded = FrameDecoder.decodeForTests(#"{"type":"text","text":"a\r\nb"}"#)
        #expect(decoded == .control(.text("a\nb")))
    }

    /// uinput types US-layout ASCII only: other characters are refused before anything is typed.
    @Test func uinputRefusesWhatItCannotType() {
        var (session, output) = Self.touchpad(Self.uinput)
        session.receive(#"{"type":"text","text":"café"}"#, at: 1, into: &output)
        session.receive(#"{"type":"key","key":"é"}"#, at: 1, into: &output)
        session.receive(#"{"type":"key","key":"AudioVolumeUp"}"#, at: 1, into: &output)
        #expect(TestSupport.errorCodes(output) == ["bad_field", "bad_field"])
        let message = TestSupport.frames(output).first?.1["message"] as? String ?? ""
        #expect(message.hasPrefix(#"text: the uinput backend cannot type "é" (U+00E9)"#))
    }

    /// The portal follows the desktop's layout: unknown, ASCII only; known, what the layout has
    /// (the server hands an open session each new table). A refusal names every character refused,
    /// once, and the layout.
    @Test func portalRefusesWhatTheLayoutLacks() {
        let portal = ControlContext(status: .active(backend: "portal"), capabilities: .init(characters: .desktopLayout(nil)))
        var (session, output) = Self.touchpad(portal)
        session.receive(#"{"type":"text","text":"hé"}"#, at: 1, into: &output)
        let unknown = TestSupport.frames(output).first?.1["message"] as? String ?? ""
        #expect(unknown.contains("not known (no Wayland keymap)"))
        let french = DesktopLayout.Table(keysyms: [0x68: 0x68, 0xE9: 0xE9], names: ["French"])
        session.updateCapabilities(.init(characters: .desktopLayout(french)))
        output.removeAll()
        session.receive(#"{"type":"text","text":"hé\n"}"#, at: 2, into: &output)
        #expect(TestSupport.errorCodes(output).isEmpty)
        session.receive(#"{"type":"text","text":"hé中文中x"}"#, at: 3, into: &output)
        #expect(TestSupport.errorCodes(output) == ["bad_field"])
        let message = TestSupport.frames(output).last?.1["message"] as? String ?? ""
        #expect(
            message
                == #"text: the portal backend cannot type "中" (U+4E2D), "文" (U+6587), "x" (U+0078): not on the desktop's keyboard layout (French); nothing was typed; gesturepad help control"#
        )
    }

    /// Modifiers parse in order, without repeats; the key message reaches the mapper as one command.
    @Test func keyMessageDecodes() {
        let decoded = FrameDecoder.decodeForTests(#"{"type":"key","key":"c","modifiers":["Control","Shift","Control"]}"#)
        #expect(decoded == .control(.key(.character("c"), modifiers: [.control, .shift])))
        let button = FrameDecoder.decodeForTests(#"{"type":"button","button":"right","action":"down"}"#)
        #expect(button == .control(.button(.right, .down)))
    }

    /// `spotlight` (additive): `do` show or hide, for the computer when the backend draws one
    /// (x11); refused with bad_field elsewhere, and observers see it in the command notice.
    @Test func spotlightMessage() {
        var x11 = Self.x11
        x11.capabilities.spotlight = true
        var (session, output) = Self.touchpad(x11)
        session.receive(#"{"type":"spotlight","do":"show"}"#, at: 1, into: &output)
        #expect(output.actions == [.spotlight(true)])
        let notice = TestSupport.frames(output).first { $0.1["type"] as? String == "command" }?.1
        #expect(notice?["command"] as? String == "spotlight" && notice?["do"] as? String == "show")
        output.removeAll()
        session.receive(#"{"type":"spotlight","do":"dim"}"#, at: 2, into: &output)
        session.receive(#"{"type":"spotlight"}"#, at: 2, into: &output)
        #expect(TestSupport.errorCodes(output) == ["bad_field", "bad_field"] && output.actions.isEmpty)
        output.removeAll()
        session.receive(#"{"type":"spotlight","do":"hide"}"#, at: 3, into: &output)
        #expect(output.actions == [.spotlight(false)])

        var (other, out2) = Self.touchpad(Self.uinput)
        other.receive(#"{"type":"spotlight","do":"show"}"#, at: 1, into: &out2)
        #expect(TestSupport.errorCodes(out2) == ["bad_field"] && out2.actions.isEmpty)
        let message = TestSupport.frames(out2).first?.1["message"] as? String ?? ""
        #expect(message.hasPrefix("spotlight: the uinput backend cannot draw one"))
        out2.removeAll()
        other.receive(#"{"type":"spotlight","do":"hide"}"#, at: 2, into: &out2)
        #expect(TestSupport.errorCodes(out2).isEmpty)  // hiding is always fine (and does nothing here)
    }
}

extension FrameDecoder {
    /// The one message of a frame, if valid (tests).
    static func decodeForTests(_ text: String) -> ClientMessage? {
        var decoded: [DecodedMessage] = []
        let bytes = Array(text.utf8)
        _ = decode(bytes.span, into: &decoded)
        return try? decoded.first?.result.get()
    }
}
