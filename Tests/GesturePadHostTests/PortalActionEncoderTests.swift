import GestureControl
import Testing

@testable import GesturePadHost

/// Host actions → RemoteDesktop Notify calls.
@Suite struct PortalActionEncoderTests {
    private func encode(_ actions: [HostAction], with encoder: inout PortalActionEncoder) -> [PortalNotify] {
        var calls: [PortalNotify] = []
        for action in actions { encoder.encode(action, into: &calls) }
        return calls
    }

    private func encode(_ actions: HostAction...) -> [PortalNotify] {
        var encoder = PortalActionEncoder()
        return encode(actions, with: &encoder)
    }

    /// Motion as doubles; zero motion is not sent.
    @Test func motion() {
        #expect(encode(.motion(dx: 3, dy: -2), .motion(dx: 0, dy: 0)) == [.pointerMotion(dx: 3, dy: -2)])
    }

    /// Buttons are evdev codes 272 / 273 / 274, pressed and released once each.
    @Test func buttons() {
        #expect(
            encode(.button(.left, .down), .button(.left, .down), .button(.right, .down), .button(.middle, .down),
                .button(.left, .up), .button(.left, .up))
                == [
                    .pointerButton(button: 272, pressed: true), .pointerButton(button: 273, pressed: true),
                    .pointerButton(button: 274, pressed: true), .pointerButton(button: 272, pressed: false),
                ])
    }

    /// The wheel is smooth scrolling, 10 units per detent, positive down; wheelStop finishes it
    /// once (no finish without a scroll).
    @Test func smoothScrollWithFinish() {
        #expect(
            encode(.wheelStop, .wheel(dx: 0, dy: 0.5), .wheel(dx: -0.25, dy: 1), .wheelStop, .wheelStop)
                == [
                    .pointerAxis(dx: 0, dy: 5, finish: false), .pointerAxis(dx: -2.5, dy: 10, finish: false),
                    .pointerAxis(dx: 0, dy: 0, finish: true),
                ])
    }

    /// With Control held (pinch zoom), whole detents go as discrete steps, never as smooth axis.
    @Test func zoomStepsAreDiscrete() {
        let control = HostKey.named(.control)
        #expect(
            encode(.key(control, .down), .wheel(dx: 0, dy: -1), .wheel(dx: 0, dy: 0.5), .wheel(dx: 0, dy: 0.5),
                .wheel(dx: 1, dy: 0), .key(control, .up))
                == [
                    .keyboardKeycode(29, pressed: true), .pointerAxisDiscrete(axis: 0, steps: -1),
                    .pointerAxisDiscrete(axis: 0, steps: 1), .pointerAxisDiscrete(axis: 1, steps: 1),
                    .keyboardKeycode(29, pressed: false),
                ])
    }

    /// With the desktop's layout unknown, text is keysyms, pressed and released: Latin-1 as is,
    /// others as Unicode keysyms, newline as Return, tab as Tab; control characters are skipped.
    @Test func textAsKeysyms() {
        let calls = encode(.text("aé中\n\t\u{7}"))
        let pressed = calls.compactMap { call -> Int32? in
            if case .keyboardKeysym(let keysym, true) = call { return keysym }
            return nil
        }
        #expect(pressed == [0x61, 0xE9, 0x0100_4E2D, 0xFF0D, 0xFF09])
        #expect(calls.count == 10)
        #expect(calls[1] == .keyboardKeysym(0x61, pressed: false))
    }

    /// With the layout known, a character goes as the keysym the layout lists for it (€ as
    /// EuroSign, not the Unicode keysym the desktop would drop); one it lacks is skipped, and
    /// reported once, and its key release sends nothing.
    @Test func textWithTheLayoutsKeysyms() {
        let german = DesktopLayout.Table(keysyms: [0x61: 0x61, 0x20AC: 0x20AC, 0xF6: 0xF6], names: ["German"])
        var encoder = PortalActionEncoder(layout: german)
        let calls = encode([.text("a€ö中\n"), .key(.character("中"), .down), .key(.character("中"), .up)], with: &encoder)
        let pressed = calls.compactMap { call -> Int32? in
            if case .keyboardKeysym(let keysym, true) = call { return keysym }
            return nil
        }
        #expect(pressed == [0x61, 0x20AC, 0xF6, 0xFF0D])
        #expect(calls.count == 8)
        #expect(encoder.takeSkipped() == ["中", "中"])
        #expect(encoder.takeSkipped().isEmpty)
    }

    /// Named keys go as evdev keycodes; character keys as keysyms.
    @Test func keys() {
        #expect(
            encode(.key(.named(.enter), .down), .key(.named(.enter), .up), .key(.character("é"), .down),
                .key(.character("é"), .up), .key(.named(.audioVolumeUp), .down))
                == [
                    .keyboardKeycode(28, pressed: true), .keyboardKeycode(28, pressed: false),
                    .keyboardKeysym(0xE9, pressed: true), .keyboardKeysym(0xE9, pressed: false),
                    .keyboardKeycode(115, pressed: true),
                ])
    }

    /// releaseAll finishes a scroll, releases the buttons, then keys last first; then nothing is left.
    @Test func releaseAll() {
        var encoder = PortalActionEncoder()
        _ = encode(
            [.button(.left, .down), .wheel(dx: 0, dy: 1), .key(.named(.shift), .down), .key(.character("x"), .down)],
            with: &encoder)
        var calls: [PortalNotify] = []
        encoder.releaseAll(into: &calls)
        #expect(
            calls == [
                .pointerAxis(dx: 0, dy: 0, finish: true), .pointerButton(button: 272, pressed: false),
                .keyboardKeysym(0x78, pressed: false), .keyboardKeycode(42, pressed: false),
            ])
        calls.removeAll()
        encoder.releaseAll(into: &calls)
        #expect(calls.isEmpty)
    }

    /// The Notify calls on the wire: member names, session first, then options, then values.
    @Test func notifyCalls() {
        let session = "/org/freedesktop/portal/desktop/session/1_1/s"
        let axis = PortalNotify.pointerAxis(dx: 0, dy: 0, finish: true).methodCall(session: session)
        #expect(axis.member == "NotifyPointerAxis")
        #expect(axis.arguments == [.objectPath(session), .vardict([DBusEntry("finish", .bool(true))]), .double(0), .double(0)])
        let button = PortalNotify.pointerButton(button: 273, pressed: true).methodCall(session: session)
        #expect(button.arguments == [.objectPath(session), .vardict([]), .int32(273), .uint32(1)])
        let discrete = PortalNotify.pointerAxisDiscrete(axis: 1, steps: -2).methodCall(session: session)
        #expect(discrete.member == "NotifyPointerAxisDiscrete" && discrete.arguments[2...] == [.uint32(1), .int32(-2)])
        #expect(PortalNotify.keyboardKeysym(0x61, pressed: false).methodCall(session: session).member == "NotifyKeyboardKeysym")
        #expect(PortalNotify.keyboardKeycode(28, pressed: true).methodCall(session: session).member == "NotifyKeyboardKeycode")
        #expect(PortalNotify.pointerMotion(dx: 1, dy: 2).methodCall(session: session).member == "NotifyPointerMotion")
    }
}
