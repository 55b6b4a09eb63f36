import GestureControl
import GestureEngine
import Testing

@testable import GestureProtocol

/// The additive `settings` message: a page changes its own connection's pointer settings.
struct SettingsMessageTests {
    /// The answer carries every value in force; absent fields keep theirs; motion uses the new speed.
    @Test func appliesAndAnswers() {
        var settings = ControlSettings()
        settings.acceleration = .flat
        let context = ControlContext(
            status: .active(backend: "x11"), settings: settings, capabilities: .init(characters: .anyUnicode))
        var (session, output) = ControlMessageTests.touchpad(context)
        session.receive(#"{"type":"settings","speed":2,"naturalScroll":false,"dragLock":true}"#, at: 1, into: &output)
        let answer = TestSupport.frames(output).first?.1 ?? [:]
        #expect(answer["type"] as? String == "settings")
        #expect(answer["speed"] as? Double == 2 && answer["acceleration"] as? String == "flat")
        #expect(answer["naturalScroll"] as? Bool == false && answer["dragLock"] as? Bool == true)
        #expect(answer["tapToClick"] as? Bool == true && answer["leftHanded"] as? Bool == false)
        output.removeAll()
        // What the page shows but cannot change: the tap buttons, pinch zoom, the bound swipes.
        #expect(answer["pinchZoom"] as? Bool == true)
        #expect(answer["tapButtons"] as? [String] == ["left", "right", "middle"])
        #expect(
            answer["swipes"] as? [String: String]
                == ["left": "Alt+ArrowRight", "right": "Alt+ArrowLeft", "up": "Meta", "down": "Meta+d"])
        session.receive(TestSupport.down(1, t: 1000), at: 2, into: &output)
        session.receive(TestSupport.move(1, t: 1010, x: 105), at: 3, into: &output)
        #expect(output.actions == [.motion(dx: 10, dy: 0)])
    }

    /// Only the swipes bound to keys are listed: an unbound direction is left out.
    @Test func answerListsBoundSwipesOnly() {
        var settings = ControlSettings()
        settings.swipeKeys = [.up: KeyCombination(modifiers: [.control, .alt], key: .named(.arrowUp))]
        settings.tapButtons = [.left, .middle]
        let context = ControlContext(
            status: .active(backend: "x11"), settings: settings, capabilities: .init(characters: .anyUnicode))
        var (session, output) = ControlMessageTests.touchpad(context)
        session.receive(#"{"type":"settings"}"#, at: 1, into: &output)
        let answer = TestSupport.frames(output).first?.1 ?? [:]
        #expect(answer["swipes"] as? [String: String] == ["up": "Control+Alt+ArrowUp"])
        #expect(answer["tapButtons"] as? [String] == ["left", "middle"])
    }

    /// Out-of-range and wrong-typed values are bad_field; with control off, control_off.
    @Test func refusals() {
        var (session, output) = ControlMessageTests.touchpad(ControlMessageTests.x11)
        session.receive(#"{"type":"settings","speed":50}"#, at: 1, into: &output)
        session.receive(#"{"type":"settings","acceleration":"fast"}"#, at: 1, into: &output)
        session.receive(#"{"type":"settings","dragLock":"yes"}"#, at: 1, into: &output)
        #expect(TestSupport.errorCodes(output) == ["bad_field", "bad_field", "bad_field"])
        var (off, offOutput) = ControlMessageTests.touchpad(.off(reason: "--control off"))
        off.receive(#"{"type":"settings","speed":1}"#, at: 1, into: &offOutput)
        #expect(TestSupport.errorCodes(offOutput) == ["control_off"])
    }
}
