import GestureControl
import Testing

@testable import GesturePadHost

/// Host actions → wlroots virtual pointer and keyboard requests, and the keymap they upload,
/// read back by xkbcommon as a client of the compositor reads it.
@Suite struct WlrootsActionEncoderTests {
    /// The US keymap as xkbcommon writes it, compiled once.
    static let us: XKBKeymap? = XKBKeymap(layout: "us")

    private func encoder() throws -> WlrootsActionEncoder {
        let us = try #require(Self.us)
        return WlrootsActionEncoder(layout: EvdevLayout(us.layouts[0]), keymap: VirtualKeymap(base: us.text))
    }

    private func encode(_ actions: [HostAction], with encoder: inout WlrootsActionEncoder) -> [VirtualInputRequest] {
        var requests: [VirtualInputRequest] = []
        for action in actions { encoder.encode(action, into: &requests) }
        return requests
    }

    private func encode(_ actions: HostAction...) throws -> [VirtualInputRequest] {
        var encoder = try encoder()
        return encode(actions, with: &encoder)
    }

    /// The start: the keymap first (no key before one), no modifiers, a motion by nothing (the
    /// pointer's focus), one release per button (a crashed predecessor's stuck grab ends there).
    @Test func startReleasesEveryButton() throws {
        var encoder = try encoder()
        var requests: [VirtualInputRequest] = []
        encoder.start(into: &requests)
        let us = try #require(Self.us)
        #expect(requests.first == .keymap(us.text))
        #expect(
            Array(requests.dropFirst())
                == [
                    .modifiers(depressed: 0), .motion(dx: 0, dy: 0), .frame, .button(code: 272, pressed: false),
                    .button(code: 273, pressed: false),
                    .button(code: 274, pressed: false), .frame,
                ])
    }

    /// Motion is relative, one frame each; zero motion is not sent.
    @Test func motionFrames() throws {
        #expect(
            try encode(.motion(dx: 200, dy: -100), .motion(dx: 0, dy: 0))
                == [.motion(dx: 200, dy: -100), .frame])
    }

    /// Buttons are evdev codes, pressed and released once each.
    @Test func buttonsOnceEach() throws {
        #expect(
            try encode(
                .button(.left, .down), .button(.left, .down), .button(.right, .down), .button(.left, .up),
                .button(.left, .up))
                == [
                    .button(code: 272, pressed: true), .frame, .button(code: 273, pressed: true), .frame,
                    .button(code: 272, pressed: false), .frame,
                ])
    }

    /// Scrolling is smooth with source finger, 10 units per detent, positive down / right; the
    /// stop is axis_stop on both axes, once.
    @Test func smoothScrollWithStop() throws {
        #expect(
            try encode(.wheelStop, .wheel(dx: 0, dy: 0.5), .wheel(dx: -0.25, dy: 0), .wheelStop, .wheelStop)
                == [
                    .axis(.vertical, value: 5), .axisSource(.finger), .frame,
                    .axis(.horizontal, value: -2.5), .axisSource(.finger), .frame,
                    .axisStop(.vertical), .axisSource(.finger), .axisStop(.horizontal), .axisSource(.finger), .frame,
                ])
    }

    /// Pinch zoom holds Control: the modifier is sent (the compositor derives none from keys),
    /// and the wheel goes as whole wheel clicks, fractions carried.
    @Test func zoomIsControlAndWheelClicks() throws {
        let requests = try encode(
            .key(.named(.control), .down), .wheel(dx: 0, dy: -0.6), .wheel(dx: 0, dy: -0.6),
            .key(.named(.control), .up))
        #expect(
            requests == [
                .modifiers(depressed: 4), .key(code: 29, pressed: true),
                .axisDiscrete(.vertical, value: -15, steps: -1), .axisSource(.wheel), .frame,
                .key(code: 29, pressed: false), .modifiers(depressed: 0),
            ])
    }

    /// Control+a: the modifier mask with Control around the key of "a".
    @Test func controlA() throws {
        #expect(
            try encode(
                .key(.named(.control), .down), .key(.character("a"), .down), .key(.character("a"), .up),
                .key(.named(.control), .up))
                == [
                    .modifiers(depressed: 4), .key(code: 29, pressed: true), .key(code: 30, pressed: true),
                    .key(code: 30, pressed: false), .key(code: 29, pressed: false), .modifiers(depressed: 0),
                ])
    }

    /// Text on the layout's keys: Shift as a modifier mask around "H", none after.
    @Test func textOnTheLayout() throws {
        #expect(
            try encode(.text("Hi\n"))
                == [
                    .modifiers(depressed: 1), .key(code: 35, pressed: true), .key(code: 35, pressed: false),
                    .modifiers(depressed: 0), .key(code: 23, pressed: true), .key(code: 23, pressed: false),
                    .key(code: 28, pressed: true), .key(code: 28, pressed: false),
                ])
    }

    /// Characters the layout lacks go on spare keys of one new keymap per text, which a client
    /// reads back as those characters; a text whose characters are all there uploads nothing.
    @Test func anyUnicodeThroughOneKeymap() throws {
        var encoder = try encoder()
        let requests = encode([.text("wörld € 日本 🙂"), .text("🙂ö")], with: &encoder)
        let keymaps = requests.compactMap { request -> String? in
            if case .keymap(let text) = request { return text }
            return nil
        }
        #expect(keymaps.count == 1)
        let keymap = try #require(keymaps.first)
        let layouts = try #require(XKBKeymap(text: keymap)?.layouts)
        let typed = requests.compactMap { request -> UInt32? in
            guard case .key(let code, true) = request else { return nil }
            let key = layouts[0].keys.first { $0.keycode == code + 8 && $0.level == 0 }
            return key?.scalar
        }
        let text = String(String.UnicodeScalarView(typed.compactMap(Unicode.Scalar.init)))
        #expect(text == "wörld € 日本 🙂🙂ö")
    }

    /// A compositor's keymap text (here: German's, as xkbcommon writes it) becomes a base of
    /// the same layout, whose strokes type "z" on the German Z key (evdev 21).
    @Test func theSeatsKeymapAsTheBase() throws {
        let german = try #require(XKBKeymap(layout: "de"))
        let seat = try #require(XKBKeymap(text: german.text))
        #expect(seat.layouts == german.layouts)
        #expect(EvdevLayout(seat.layouts[0]).stroke("z")?.code == 21)
        #expect(XKBKeymap(text: "not a keymap") == nil)
    }

    /// Spare keys start past every key of the layout (XF86AudioMicMute sits on 256).
    @Test func spareKeysPastTheLayout() throws {
        let us = try #require(Self.us)
        let keymap = VirtualKeymap(base: us.text)
        let highest = try #require(us.layouts[0].keys.map(\.keycode).max())
        #expect(keymap.firstSpareKeycode > highest)
    }

    /// Release: the scroll stopped, the buttons, then keys last pressed first, the modifiers cleared.
    @Test func releaseAllLetsGoOfEverything() throws {
        var encoder = try encoder()
        _ = encode(
            [.button(.left, .down), .wheel(dx: 0, dy: 1), .key(.named(.shift), .down), .key(.character("é"), .down)],
            with: &encoder)
        var requests: [VirtualInputRequest] = []
        encoder.releaseAll(into: &requests)
        let spare = try #require(encoder.keymap.evdevCode(of: "é"))
        #expect(
            requests == [
                .axisStop(.vertical), .axisSource(.finger), .axisStop(.horizontal), .axisSource(.finger), .frame,
                .button(code: 272, pressed: false), .frame,
                .key(code: spare, pressed: false), .key(code: 42, pressed: false), .modifiers(depressed: 0),
            ])
        requests.removeAll()
        encoder.releaseAll(into: &requests)
        #expect(requests.isEmpty)
    }
}
