import GestureControl
import Testing

@testable import GesturePadHost

/// What the encoder corrects of KDE Plasma's portal (`PortalDesktop.kde`), on real XKB layouts
/// (xkbcommon and the system's XKB data) — the desktop picked by `XDG_CURRENT_DESKTOP`.
@Suite struct PortalKDETests {
    private func table(_ layout: String) throws -> DesktopLayout.Table {
        let layouts = try #require(XKBKeymap(layout: layout)?.layouts, "xkbcommon cannot compile \(layout)")
        return try #require(PortalKeymap.table(layouts, for: .kde))
    }

    /// XDG_CURRENT_DESKTOP names the implementation; the first known name wins.
    @Test func desktopFromTheEnvironment() {
        #expect(PortalDesktop(currentDesktop: "KDE") == .kde)
        #expect(PortalDesktop(currentDesktop: "ubuntu:GNOME") == .gnome)
        #expect(PortalDesktop(currentDesktop: "sway") == .other)
        #expect(PortalDesktop(currentDesktop: nil) == .other)
        #expect(PortalDesktop.kde.negatesVerticalAxis && !PortalDesktop.gnome.negatesVerticalAxis)
    }

    /// US alone: every printable ASCII character by key code, capitals with Shift (KEY_LEFTSHIFT 42).
    @Test func usByKeycode() throws {
        let us = try table("us")
        for value in UInt32(0x20)...0x7E { #expect(us.strokes[value] != nil, "U+\(String(value, radix: 16))") }
        #expect(us.strokes[UInt32(("a" as Unicode.Scalar).value)] == DesktopLayout.Stroke(keycode: 30))
        #expect(us.strokes[UInt32(("A" as Unicode.Scalar).value)] == DesktopLayout.Stroke(keycode: 30, modifiers: [42]))
        #expect(Set(us.keysyms.keys) == Set(us.strokes.keys))
    }

    /// German alone: z on KEY_Y (21), ö on KEY_SEMICOLON (39), € and @ with AltGr.
    @Test func germanByKeycode() throws {
        let german = try table("de")
        #expect(german.strokes[0x7A]?.keycode == 21)
        #expect(german.strokes[0xF6] == DesktopLayout.Stroke(keycode: 39))
        let euro = try #require(german.strokes[0x20AC])
        #expect(euro.keycode == 18 && euro.modifiers.count == 1)
        #expect(german.strokes[0x40]?.keycode == 16)
    }

    /// us,de: KDE's portal finds keys in the first layout whatever is active, so a character
    /// whose key types something else on another layout ("y", "z") is refused before typing;
    /// one on the same key in both ("a", "1") is kept; "ö" (not on US) is refused.
    @Test func severalLayoutsKeepOnlyWhatEveryLayoutTypesAlike() throws {
        let both = try table("us,de")
        #expect(both.names == ["English (US)", "German"])
        #expect(both.strokes[0x79] == nil && both.strokes[0x7A] == nil)
        #expect(both.keysyms[0x79] == nil && both.keysyms[0x7A] == nil)
        #expect(both.strokes[0x61] == DesktopLayout.Stroke(keycode: 30))
        #expect(both.strokes[0x31] == DesktopLayout.Stroke(keycode: 2))
        #expect(both.strokes[0xF6] == nil)
    }

    /// Scrolling: dy sent negated (the portal negates it again); zoom steps sent as ten axis
    /// units each (the portal passes steps through as the axis value); GNOME unchanged.
    @Test func axisCorrections() {
        var kde = PortalActionEncoder(desktop: .kde)
        var calls: [PortalNotify] = []
        kde.encode(.wheel(dx: 0.5, dy: 1), into: &calls)
        #expect(calls == [.pointerAxis(dx: 5, dy: -10, finish: false)])
        calls.removeAll()
        kde.encode(.key(.named(.control), .down), into: &calls)
        kde.encode(.wheel(dx: 0, dy: -2), into: &calls)
        #expect(calls.last == .pointerAxisDiscrete(axis: 0, steps: -20))

        var gnome = PortalActionEncoder(desktop: .gnome)
        calls.removeAll()
        gnome.encode(.wheel(dx: 0, dy: 1), into: &calls)
        gnome.encode(.key(.named(.control), .down), into: &calls)
        gnome.encode(.wheel(dx: 0, dy: -2), into: &calls)
        #expect(calls.first == .pointerAxis(dx: 0, dy: 10, finish: false))
        #expect(calls.last == .pointerAxisDiscrete(axis: 0, steps: -2))
    }

    /// Text by key code: modifiers around the key, released in reverse; newline is Enter; a
    /// character the table lacks is skipped and reported. Without a table: keysyms as before.
    @Test func textByKeycode() throws {
        var encoder = PortalActionEncoder(layout: try table("de"), desktop: .kde)
        var calls: [PortalNotify] = []
        encoder.encode(.text("zA\n€日"), into: &calls)
        #expect(
            calls.prefix(8) == [
                .keyboardKeycode(21, pressed: true), .keyboardKeycode(21, pressed: false),
                .keyboardKeycode(42, pressed: true), .keyboardKeycode(30, pressed: true),
                .keyboardKeycode(30, pressed: false), .keyboardKeycode(42, pressed: false),
                .keyboardKeycode(28, pressed: true), .keyboardKeycode(28, pressed: false),
            ])
        #expect(calls.count == 12)  // € with AltGr around it: 4 more; 日 skipped
        #expect(encoder.takeSkipped() == ["日"])

        var unknown = PortalActionEncoder(desktop: .kde)
        calls.removeAll()
        unknown.encode(.text("a"), into: &calls)
        #expect(calls == [.keyboardKeysym(0x61, pressed: true), .keyboardKeysym(0x61, pressed: false)])
    }

    /// A character key held by a key action holds its modifiers too, and lets go of both.
    @Test func heldCharacterKey() throws {
        var encoder = PortalActionEncoder(layout: try table("us"), desktop: .kde)
        var calls: [PortalNotify] = []
        encoder.encode(.key(.character("A"), .down), into: &calls)
        encoder.releaseAll(into: &calls)
        #expect(
            calls == [
                .keyboardKeycode(42, pressed: true), .keyboardKeycode(30, pressed: true),
                .keyboardKeycode(30, pressed: false), .keyboardKeycode(42, pressed: false),
            ])
    }
}

/// What a KDE session holds, as the record the next server releases.
@Suite struct PortalHeldRecordTests {
    /// Buttons and keys by code in press order; released last first; characters held by key
    /// code with their modifiers; a keysym-held character is not recorded (not releasable by
    /// code); the change counter moves only when something is pressed or released.
    @Test func recordAndReleases() throws {
        let layouts = try #require(XKBKeymap(layout: "us")?.layouts)
        var encoder = PortalActionEncoder(layout: PortalKeymap.table(layouts, for: .kde), desktop: .kde)
        var calls: [PortalNotify] = []
        #expect(encoder.heldRecord == "")
        let before = encoder.heldChanges
        encoder.encode(.motion(dx: 3, dy: 4), into: &calls)
        #expect(encoder.heldChanges == before)
        encoder.encode(.button(.left, .down), into: &calls)
        encoder.encode(.key(.named(.control), .down), into: &calls)
        encoder.encode(.key(.character("A"), .down), into: &calls)
        #expect(encoder.heldRecord == "b272,k29,k42,k30")
        #expect(
            PortalActionEncoder.releases(of: encoder.heldRecord) == [
                .keyboardKeycode(30, pressed: false), .keyboardKeycode(42, pressed: false),
                .keyboardKeycode(29, pressed: false), .pointerButton(button: 272, pressed: false),
            ])
        #expect(PortalActionEncoder.releases(of: "x1,b,k-3,b99999,k28") == [.keyboardKeycode(28, pressed: false)])
        encoder.releaseAll(into: &calls)
        #expect(encoder.heldRecord == "")
    }
}
