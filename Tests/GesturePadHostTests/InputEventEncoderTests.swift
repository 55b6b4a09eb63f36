import CUInput
import GestureControl
import Testing

@testable import GesturePadHost

/// Shorthands for expected events.
func rel(_ axis: Int32, _ value: Int32) -> InputEvent {
    InputEvent(type: UInt16(EV_REL), code: UInt16(axis), value: value)
}

func key(_ code: Int32, _ value: Int32) -> InputEvent {
    InputEvent(type: UInt16(EV_KEY), code: UInt16(code), value: value)
}

let syn = InputEvent(type: 0, code: 0, value: 0)

@Suite struct InputEventEncoderTests {
    private func encode(_ actions: [HostAction], with encoder: inout InputEventEncoder) -> [InputEvent] {
        var events: [InputEvent] = []
        for action in actions { encoder.encode(action, into: &events) }
        return events
    }

    private func encode(_ actions: HostAction...) -> [InputEvent] {
        var encoder = InputEventEncoder()
        return encode(actions, with: &encoder)
    }

    /// Motion is REL_X and REL_Y then a report; zero components are left out.
    @Test func motion() {
        #expect(encode(.motion(dx: 3, dy: -2)) == [rel(REL_X, 3), rel(REL_Y, -2), syn])
        #expect(encode(.motion(dx: 0, dy: 5)) == [rel(REL_Y, 5), syn])
        #expect(encode(.motion(dx: 0, dy: 0)).isEmpty)
    }

    /// Buttons press and release once each.
    @Test func buttons() {
        #expect(
            encode(
                .button(.left, .down), .button(.left, .down), .button(.right, .down), .button(.left, .up), .button(.middle, .up))
                == [key(BTN_LEFT, 1), syn, key(BTN_RIGHT, 1), syn, key(BTN_LEFT, 0), syn])
    }

    /// Half detents down: 60/120 each in high resolution (negative: REL_WHEEL up is positive),
    /// and one REL_WHEEL -1 with the second.
    @Test func wheelHalfDetents() {
        var encoder = InputEventEncoder()
        #expect(encode([.wheel(dx: 0, dy: 0.5)], with: &encoder) == [rel(REL_WHEEL_HI_RES, -60), syn])
        #expect(encode([.wheel(dx: 0, dy: 0.5)], with: &encoder) == [rel(REL_WHEEL_HI_RES, -60), rel(REL_WHEEL, -1), syn])
    }

    /// Horizontal wheel keeps the sign (right positive); both axes share one report.
    @Test func wheelBothAxes() {
        #expect(
            encode(.wheel(dx: -1, dy: -2))
                == [rel(REL_WHEEL_HI_RES, 240), rel(REL_WHEEL, 2), rel(REL_HWHEEL_HI_RES, -120), rel(REL_HWHEEL, -1), syn])
        #expect(encode(.wheel(dx: 0, dy: 0)).isEmpty)
    }

    /// wheelStop sends nothing and keeps the remainder.
    @Test func wheelStopKeepsTheRemainder() {
        var encoder = InputEventEncoder()
        _ = encode([.wheel(dx: 0.75, dy: 0), .wheelStop], with: &encoder)
        #expect(encode([.wheel(dx: 0.25, dy: 0)], with: &encoder) == [rel(REL_HWHEEL_HI_RES, 30), rel(REL_HWHEEL, 1), syn])
    }

    /// A shifted character key: Shift in its own report first, released after.
    @Test func shiftedCharacterKey() {
        var encoder = InputEventEncoder()
        #expect(
            encode([.key(.character("A"), .down)], with: &encoder) == [key(KEY_LEFTSHIFT, 1), syn, key(KEY_A, 1), syn])
        #expect(encode([.key(.character("A"), .up)], with: &encoder) == [key(KEY_A, 0), syn, key(KEY_LEFTSHIFT, 0), syn])
    }

    /// A key combination: Control held, Shift shared between the named key and a capital.
    @Test func combination() {
        let combo = KeyCombination(modifiers: [.control, .shift], key: .character("T"))
        var encoder = InputEventEncoder()
        #expect(
            encode(combo.actions, with: &encoder)
                == [
                    key(KEY_LEFTCTRL, 1), syn, key(KEY_LEFTSHIFT, 1), syn, key(KEY_T, 1), syn,
                    key(KEY_T, 0), syn, key(KEY_LEFTSHIFT, 0), syn, key(KEY_LEFTCTRL, 0), syn,
                ])
    }

    /// Text: each character pressed and released, Shift around capitals, Enter for newline.
    @Test func text() {
        #expect(
            encode(.text("Hi!\n"))
                == [
                    key(KEY_LEFTSHIFT, 1), syn, key(KEY_H, 1), syn, key(KEY_H, 0), syn, key(KEY_LEFTSHIFT, 0), syn,
                    key(KEY_I, 1), syn, key(KEY_I, 0), syn,
                    key(KEY_LEFTSHIFT, 1), syn, key(KEY_1, 1), syn, key(KEY_1, 0), syn, key(KEY_LEFTSHIFT, 0), syn,
                    key(KEY_ENTER, 1), syn, key(KEY_ENTER, 0), syn,
                ])
    }

    /// Characters a US layout lacks are skipped and counted.
    @Test func nonASCIIIsSkipped() {
        var encoder = InputEventEncoder()
        #expect(encode([.text("é中"), .key(.character("ü"), .down)], with: &encoder).isEmpty)
        #expect(encoder.skippedCharacters == 3)
    }

    /// releaseAll releases the buttons, then held keys (last first); twice is harmless.
    @Test func releaseAll() {
        var encoder = InputEventEncoder()
        _ = encode(
            [.button(.left, .down), .key(.named(.control), .down), .key(.character("?"), .down)], with: &encoder)
        var events: [InputEvent] = []
        encoder.releaseAll(into: &events)
        #expect(
            events == [
                key(BTN_LEFT, 0), syn, key(KEY_SLASH, 0), syn, key(KEY_LEFTSHIFT, 0), syn, key(KEY_LEFTCTRL, 0), syn,
            ])
        events.removeAll()
        encoder.releaseAll(into: &events)
        #expect(events.isEmpty)
    }
}

/// Typing through a named layout: the layout's key, Shift and AltGr held around it.
@Suite struct InputEventEncoderLayoutTests {
    @Test func germanText() throws {
        var encoder = InputEventEncoder(layout: try EvdevLayout.compile("de"))
        var events: [InputEvent] = []
        encoder.encode(.text("zY€"), into: &events)
        #expect(
            events == [
                key(KEY_Y, 1), syn, key(KEY_Y, 0), syn,
                key(KEY_LEFTSHIFT, 1), syn, key(KEY_Z, 1), syn, key(KEY_Z, 0), syn, key(KEY_LEFTSHIFT, 0), syn,
                key(KEY_RIGHTALT, 1), syn, key(KEY_E, 1), syn, key(KEY_E, 0), syn, key(KEY_RIGHTALT, 0), syn,
            ])
        #expect(encoder.skippedCharacters == 0)
    }

    /// A held character key holds its modifiers until it is released; releaseAll lets go of all.
    @Test func heldKeyWithAltGr() throws {
        var encoder = InputEventEncoder(layout: try EvdevLayout.compile("de"))
        var events: [InputEvent] = []
        encoder.encode(.key(.character("@"), .down), into: &events)
        #expect(events == [key(KEY_RIGHTALT, 1), syn, key(KEY_Q, 1), syn])
        events.removeAll()
        encoder.releaseAll(into: &events)
        #expect(events == [key(KEY_Q, 0), syn, key(KEY_RIGHTALT, 0), syn])
    }
}
